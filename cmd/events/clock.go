package main

import "time"

// clock is the service's clock: time.Now, unless a build for the bench
// sets another (clock_bench.go).
var clock = time.Now
