// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

import "time"

// clock is the service's clock: time.Now, unless a build for the bench
// sets another (clock_bench.go).
var clock = time.Now
