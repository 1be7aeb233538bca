// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package dbtest

import (
	"bytes"
	"sync"
)

// LogBuffer is a log destination that a test reads while a server (in this process or a child
// one) writes it.
type LogBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *LogBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *LogBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
