// Package harness is what the measuring commands (cmd/bench, cmd/soak)
// share: the real service binary built and started on a loopback port, and
// what they read of it from /proc.
package harness

import (
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
)

// FreePort asks the kernel for a free loopback port.
func FreePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// CPUTicks is the user plus system time of a process, in clock ticks.
func CPUTicks(pid int) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// fields after the command name in parentheses: state is field 3; utime 14, stime 15
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+2:]))
	u, err1 := strconv.ParseInt(f[11], 10, 64)
	s, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("cannot read the CPU times of %d", pid)
	}
	return u + s, nil
}

// TicksPerSecond is USER_HZ, 100 on Linux.
const TicksPerSecond = 100

// StatusKiB reads a kB field (VmHWM, VmRSS) of /proc/<pid>/status; 0 when
// the process or the field is gone.
func StatusKiB(pid int, field string) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, field+":"); ok {
			n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return n
		}
	}
	return 0
}
