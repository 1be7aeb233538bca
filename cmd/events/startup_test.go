package main

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestPortInUseStopsWithASentence: a port another program holds stops
// `events serve` at once with one sentence that names PORT=, exit status
// 1, and no embedded database left running (none is started: the port is
// taken first).
func TestPortInUseStopsWithASentence(t *testing.T) {
	t.Parallel()
	needPostgres(t)
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	port := taken.Addr().(*net.TCPAddr).Port
	data := dataDir(t)
	cmd := exec.Command(build(t), "serve")
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOST=127.0.0.1", fmt.Sprintf("PORT=%d", port), "EVENTS_DATA_DIR=" + data}
	began := time.Now()
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Errorf("serve on a taken port: %v, want exit status 1\n%s", err, out)
	}
	want := fmt.Sprintf("events: port %d is in use: stop the other program or start with PORT=%d events serve (PORT=%d make run)\n", port, port+1, port+1)
	if string(out) != want {
		t.Errorf("serve on a taken port said:\n%s\nwant only:\n%s", out, want)
	}
	if took := time.Since(began); took > 5*time.Second {
		t.Errorf("the refusal took %v; want it before any database is started", took)
	}
	if _, err := os.Stat(filepath.Join(data, "postgres", "postmaster.pid")); !os.IsNotExist(err) {
		t.Errorf("a PostgreSQL server was left in the data folder: %v", err)
	}
}

