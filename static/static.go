// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

// Package static embeds the assets served under /static/.
package static

import "embed"

// FS holds the files of this folder.
//
//go:embed *.css *.js *.svg *.png *.txt *.webmanifest
var FS embed.FS
