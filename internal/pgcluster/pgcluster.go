// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

// Package pgcluster runs a private PostgreSQL cluster from the server programs installed on the
// machine. The cluster listens on a Unix socket only, in a fresh folder that only its user (and
// root) can enter, so it never meets another PostgreSQL server.
package pgcluster

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/uptrace/bun/driver/pgdriver"
)

const (
	superuser = "events"
	port      = 5432
	// maxSocketPath is the room for a Unix socket path (sun_path, 108 bytes with the NUL).
	maxSocketPath = 107
	socketPrefix  = "evpg"
	logTailLines  = 20
	stopTimeout   = 90 * time.Second
	lockWait      = 60 * time.Second
)

// Options configures Start.
type Options struct {
	// DataDir is the cluster folder, e.g. <EVENTS_DATA_DIR>/postgres. It is made absolute, created
	// with initdb on first run and reused after. The server log is written beside it
	// (<DataDir>.log), and so is the file naming the process that owns the running cluster
	// (<DataDir>.owner).
	DataDir string
	// Database is created after start when it does not exist yet. Empty means "postgres".
	Database string
	// Fast trades durability for speed, for tests: initdb -N, and fsync, synchronous_commit and
	// full_page_writes off.
	Fast bool
	// Logger may be nil.
	Logger *slog.Logger
	// SharedRoot is where, run as root, the cluster lives when the server's user cannot reach
	// DataDir; empty means DefaultSharedRoot.
	SharedRoot string
	// LogLimit caps the server log: past it, the log is moved to <log>.1 (replacing the one
	// before) and starts empty. 0 means 10 MiB.
	LogLimit int64
}

// database is the database to connect to: Options.Database, else postgres.
func (o Options) database() string {
	if o.Database == "" {
		return "postgres"
	}
	return o.Database
}

const (
	defaultLogLimit = 10 << 20
	// watchInterval is how often the watcher checks that the server lives.
	watchInterval = 200 * time.Millisecond
	// maxRestartDelay bounds the wait between two attempts to start a server that died.
	maxRestartDelay = 10 * time.Second
	// lowDisk is the free space under which a server that is down is said to be down for a
	// full disk: a new WAL segment needs 16 MiB.
	lowDisk = 16 << 20
)

// ErrDiskFull is the Fault of a cluster whose server is down while its disk is (nearly) full.
var ErrDiskFull = errors.New("the disk of the PostgreSQL data is full")

// ErrRestarting is the Fault of a cluster whose server died and is being started again.
var ErrRestarting = errors.New("the PostgreSQL server stopped and is being started again")

// Cluster is a running PostgreSQL cluster started by Start.
type Cluster struct {
	bin      string
	dataDir  string
	logPath  string
	sockDir  string
	database string
	acct     *account
	log      *slog.Logger
	owner    *os.File // holds an exclusive flock while the cluster is ours
	fast     bool
	logLimit int64
	attached bool // Open found it run by another process: Stop leaves it running

	quit chan struct{} // closed by Stop: the watcher ends
	done chan struct{} // closed when the watcher has ended

	stateMu sync.Mutex
	pid     int   // of the postmaster
	fault   error // nil while the server runs
	logFrom int64 // size of the log when the server last started

	mu      sync.Mutex
	stopped bool
	stopErr error
}

// Start starts the cluster in opts.DataDir, creating it with initdb on first use, and creates
// opts.Database when missing. As root, PostgreSQL runs as the owner of an existing data folder
// when that is not root, else as the user postgres; when that user cannot reach opts.DataDir (a
// project in /root), the cluster lives in a folder of its own under opts.SharedRoot instead. A
// cluster that is already running there is refused while the process that started it lives, and
// stopped and started again when that process is gone. The cluster runs with the server programs
// of the major version that made it. Until Stop, the cluster is watched: a server that dies is
// started again (see Fault), and its log is kept under opts.LogLimit.
func Start(ctx context.Context, opts Options) (*Cluster, error) {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	dataDir, acct, err := resolve(opts, log)
	if err != nil {
		return nil, err
	}
	bin, err := BinariesFor(dataDir)
	if err != nil {
		return nil, err
	}
	database := opts.database()
	logLimit := opts.LogLimit
	if logLimit == 0 {
		logLimit = defaultLogLimit
	}
	c := &Cluster{
		bin:      bin,
		dataDir:  dataDir,
		logPath:  dataDir + ".log",
		database: database,
		acct:     acct,
		log:      log,
		fast:     opts.Fast,
		logLimit: logLimit,
		quit:     make(chan struct{}),
		done:     make(chan struct{}),
	}

	began := time.Now()
	if err := c.lockOwner(ctx); err != nil {
		return nil, err
	}
	if err := c.start(ctx, opts.Fast); err != nil {
		c.releaseOwner()
		return nil, err
	}
	if err := c.createDatabase(ctx); err != nil {
		close(c.done)
		_ = c.Stop()
		return nil, err
	}
	c.pid = postmasterPIDOf(c.dataDir)
	go c.watch()
	log.Info("postgres started", "data", dataDir, "socket", c.sockDir, "user", acct.name, "binaries", bin, "took", time.Since(began).Round(time.Millisecond))
	return c, nil
}

// resolve returns the absolute data folder of opts and the account PostgreSQL runs as there,
// moving the cluster under opts.SharedRoot when that account cannot reach opts.DataDir.
func resolve(opts Options, log *slog.Logger) (string, *account, error) {
	if opts.DataDir == "" {
		return "", nil, errors.New("pgcluster: no data folder given")
	}
	dataDir, err := filepath.Abs(opts.DataDir)
	if err != nil {
		return "", nil, err
	}
	if err := quotable(dataDir); err != nil {
		return "", nil, err
	}
	acct, err := serverAccount(dataDir)
	if err != nil {
		return "", nil, err
	}
	parent := filepath.Dir(dataDir)
	reachErr := acct.checkReach(parent)
	if acct.cred != nil {
		shared := opts.SharedRoot
		if shared == "" {
			shared = DefaultSharedRoot
		}
		alt := sharedDataDir(shared, dataDir)
		_, statErr := os.Stat(filepath.Join(alt, "PG_VERSION"))
		if reachErr != nil || statErr == nil {
			// Once moved, the cluster stays there, even when the project folder becomes reachable.
			if err := os.MkdirAll(filepath.Dir(alt), 0o755); err != nil {
				return "", nil, fmt.Errorf("%w; and the folder %s, where the cluster would live instead, cannot be made: %w", reachErr, filepath.Dir(alt), err)
			}
			altAcct, err := serverAccount(alt)
			if err != nil {
				return "", nil, err
			}
			if err := altAcct.checkReach(filepath.Dir(alt)); err != nil {
				return "", nil, err
			}
			if err := quotable(alt); err != nil {
				return "", nil, err
			}
			_ = os.WriteFile(filepath.Join(filepath.Dir(alt), "origin"), []byte(dataDir+"\n"), 0o644)
			log.Info("postgres data kept outside the project folder, which its user cannot enter", "user", altAcct.name, "project_data", dataDir, "data", alt)
			return alt, altAcct, nil
		}
	}
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return "", nil, fmt.Errorf("cannot create the folder %s for the PostgreSQL data: %w", parent, err)
	}
	if reachErr != nil {
		return "", nil, reachErr
	}
	return dataDir, acct, nil
}

// DefaultSharedRoot is where, run as root, the clusters of project folders that the server's
// user cannot enter are kept: one folder per project data folder.
const DefaultSharedRoot = "/var/lib/events"

// sharedDataDir is the data folder under root for the project data folder dataDir: named after
// the project folder, with a hash of the full path so two checkouts never share one.
func sharedDataDir(root, dataDir string) string {
	sum := sha256.Sum256([]byte(dataDir))
	name := filepath.Base(filepath.Dir(filepath.Dir(dataDir)))
	name = strings.Trim(unsafeName.ReplaceAllString(name, "_"), "._")
	if name == "" {
		name = "events"
	}
	return filepath.Join(root, name+"-"+hex.EncodeToString(sum[:6]), "postgres")
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9_.-]+`)

func quotable(dataDir string) error {
	if strings.ContainsAny(dataDir, "\"$`\\\n") {
		return fmt.Errorf("the PostgreSQL data folder %q contains a character pg_ctl cannot quote (\" $ ` \\ or a newline): choose another folder", dataDir)
	}
	return nil
}

// DataDir is the cluster's data folder (elsewhere than Options.DataDir when it was moved).
func (c *Cluster) DataDir() string { return c.dataDir }

// Bin is the folder of the server programs the cluster runs with (and of its pg_dump).
func (c *Cluster) Bin() string { return c.bin }

// URL returns the pgdriver DSN of the cluster's database, through its Unix socket.
func (c *Cluster) URL() string {
	return c.urlFor(c.database)
}

func (c *Cluster) urlFor(database string) string {
	host := strings.ReplaceAll(url.QueryEscape(filepath.Join(c.sockDir, ".s.PGSQL."+strconv.Itoa(port))), "%2F", "/")
	return "postgres://" + superuser + "@/" + url.PathEscape(database) + "?host=" + host + "&sslmode=disable"
}

// Stop shuts the server down (pg_ctl stop -m fast) and removes its socket folder. Calling it again
// returns the first result.
func (c *Cluster) Stop() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stopped {
		return c.stopErr
	}
	c.stopped = true
	if c.attached {
		return nil
	}
	close(c.quit)
	<-c.done

	ctx, cancel := context.WithTimeout(context.Background(), stopTimeout)
	defer cancel()
	if out, err := c.pgctl(ctx, "stop", "-w", "-m", "fast", "-D", c.dataDir); err != nil {
		if running, _, serr := c.status(ctx); serr != nil || running {
			c.stopErr = fmt.Errorf("stopping PostgreSQL in %s failed: %v: %s", c.dataDir, err, strings.TrimSpace(string(out)))
		}
	}
	if c.sockDir != "" {
		_ = os.RemoveAll(c.sockDir)
	}
	c.releaseOwner()
	if c.stopErr == nil {
		c.log.Info("postgres stopped", "data", c.dataDir)
	}
	return c.stopErr
}

// lockOwner takes the owner file's lock, or refuses when a live process holds it and the cluster
// runs. A holder whose cluster is not running (yet) is waited for.
func (c *Cluster) lockOwner(ctx context.Context) error {
	path := c.dataDir + ".owner"
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("cannot open %s, which records the process that runs the PostgreSQL cluster: %w", path, err)
	}
	giveUp := time.Now().Add(lockWait)
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			c.owner = f
			return nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			f.Close()
			return fmt.Errorf("cannot lock %s: %w", path, err)
		}
		running, pid, serr := c.status(ctx)
		if serr != nil {
			f.Close()
			return serr
		}
		if running {
			f.Close()
			return c.inUseError(pid, readOwnerPID(path))
		}
		if time.Now().After(giveUp) {
			f.Close()
			return fmt.Errorf("the PostgreSQL cluster in %s is held by process %d, which is still running though the server is not: stop that process first or use another data folder", c.dataDir, readOwnerPID(path))
		}
		select {
		case <-ctx.Done():
			f.Close()
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func (c *Cluster) releaseOwner() {
	if c.owner == nil {
		return
	}
	_ = c.owner.Truncate(0)
	_ = c.owner.Close()
	c.owner = nil
}

func (c *Cluster) inUseError(serverPID, ownerPID int) error {
	if ownerPID == 0 {
		return fmt.Errorf("the PostgreSQL cluster in %s is already running (server pid %d) and was not started by this program: stop it with pg_ctl stop -D %s, or use another data folder", c.dataDir, serverPID, c.dataDir)
	}
	return fmt.Errorf("the PostgreSQL cluster in %s is already in use: its server (pid %d) belongs to process %d, which is still running, so stop that process first or use another data folder", c.dataDir, serverPID, ownerPID)
}

func readOwnerPID(path string) int {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	return pid
}

// start runs with the owner lock held.
func (c *Cluster) start(ctx context.Context, fast bool) error {
	pidFile := filepath.Join(c.dataDir, "postmaster.pid")
	if _, err := os.Stat(pidFile); err == nil {
		running, serverPID, err := c.status(ctx)
		if err != nil {
			return err
		}
		if running && serverPID > 0 && !isPostmasterOf(serverPID, c.dataDir) {
			// Left by a server that died with the machine; its pid now belongs to another process.
			c.log.Warn("postgres pid file names a process that is not this cluster's server: removing it", "data", c.dataDir, "pid", serverPID)
			if err := os.Remove(pidFile); err != nil {
				return fmt.Errorf("removing the stale %s: %w", pidFile, err)
			}
			running = false
		}
		if running {
			ownerPID := readOwnerPID(c.owner.Name())
			if ownerPID == 0 {
				return c.inUseError(serverPID, 0)
			}
			if err := c.stopOrphan(ctx, serverPID, ownerPID); err != nil {
				return err
			}
		}
	}

	if err := c.prepareDataDir(ctx, fast); err != nil {
		return err
	}

	if err := c.owner.Truncate(0); err != nil {
		return err
	}
	if _, err := c.owner.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0); err != nil {
		return err
	}

	sockDir, err := c.makeSocketDir()
	if err != nil {
		return err
	}
	c.sockDir = sockDir

	if err := c.prepareLogFile(); err != nil {
		os.RemoveAll(sockDir)
		return err
	}
	if err := c.launch(ctx); err != nil {
		os.RemoveAll(sockDir)
		return err
	}
	return nil
}

// launch runs pg_ctl start in c.sockDir, which exists. A cancelled ctx stops what was started.
func (c *Cluster) launch(ctx context.Context) error {
	opts := []string{"-k", c.sockDir, "-p", strconv.Itoa(port), "-c", "listen_addresses=",
		// bun writes arguments into the SQL text: the log of a failed
		// statement would hold titles and descriptions, and so would the
		// DETAIL of a broken constraint ("Failing row contains ...") and
		// the message of a value refused ('invalid input syntax for type
		// integer: "..."'). An error a statement meets is the service's to
		// log (it logs the SQLSTATE, never the values): PostgreSQL logs
		// from LOG up (start, stop, checkpoints, FATAL, PANIC), not ERROR.
		"-c", "log_min_error_statement=panic", "-c", "log_error_verbosity=terse", "-c", "log_min_messages=log"}
	if c.fast {
		opts = append(opts, "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off")
	}
	var logStart int64
	if fi, err := os.Stat(c.logPath); err == nil {
		logStart = fi.Size()
	}
	c.stateMu.Lock()
	c.logFrom = logStart
	c.stateMu.Unlock()
	out, err := c.pgctl(ctx, "start", "-w", "-t", "60", "-D", c.dataDir, "-l", c.logPath, "-o", shellJoin(opts))
	if err != nil {
		if ctx.Err() != nil {
			stopCtx, cancel := context.WithTimeout(context.Background(), stopTimeout)
			_, _ = c.pgctl(stopCtx, "stop", "-w", "-m", "immediate", "-D", c.dataDir)
			cancel()
		}
		if tail := c.logTail(logStart); tail != "" {
			return fmt.Errorf("PostgreSQL in %s did not start (pg_ctl: %v); the end of its log %s:\n%s", c.dataDir, err, c.logPath, tail)
		}
		return fmt.Errorf("PostgreSQL in %s did not start (pg_ctl: %v): %s", c.dataDir, err, strings.TrimSpace(string(out)))
	}
	return nil
}

// Fault says why the server is not running while the cluster is watched: nil while it runs,
// ErrDiskFull (wrapped) while it is down and its disk is full, else ErrRestarting (wrapped).
func (c *Cluster) Fault() error {
	c.stateMu.Lock()
	defer c.stateMu.Unlock()
	return c.fault
}

// watch checks every watchInterval that the server lives, and starts it again when it died
// (killed, or stopped by itself after a failed WAL write on a full disk), waiting longer after
// each failed attempt; it also keeps the log under its limit. It ends when Stop closes c.quit.
func (c *Cluster) watch() {
	defer close(c.done)
	tick := time.NewTicker(watchInterval)
	defer tick.Stop()
	for {
		select {
		case <-c.quit:
			return
		case <-tick.C:
		}
		c.capLog()
		c.stateMu.Lock()
		pid := c.pid
		c.stateMu.Unlock()
		if pid == 0 { // postmaster.pid could not be read after the start
			if pid = postmasterPIDOf(c.dataDir); pid == 0 {
				continue
			}
			c.stateMu.Lock()
			c.pid = pid
			c.stateMu.Unlock()
		}
		if processAlive(pid) {
			continue
		}
		c.restart(pid)
	}
}

// restart starts a server that died, until it runs or Stop is called.
func (c *Cluster) restart(deadPID int) {
	began := time.Now()
	reapIfOurs(deadPID)
	c.stateMu.Lock()
	from := c.logFrom
	c.stateMu.Unlock()
	c.setFault()
	c.log.Error("postgres stopped without being asked to: starting it again", "data", c.dataDir, "pid", deadPID,
		"disk_free", c.diskFree(), "log", c.logPath, "log_tail", c.logTail(from))

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		select {
		case <-c.quit:
			cancel()
		case <-ctx.Done():
		}
	}()
	var delay time.Duration
	for attempt := 1; ; attempt++ {
		select {
		case <-c.quit:
			return
		case <-time.After(delay):
		}
		c.clearStaleLocks(deadPID)
		err := c.launch(ctx)
		if err == nil {
			pid := postmasterPIDOf(c.dataDir)
			c.log.Warn("postgres started again", "data", c.dataDir, "pid", pid, "attempt", attempt, "down_for", time.Since(began).Round(time.Millisecond))
			c.stateMu.Lock()
			c.pid, c.fault = pid, nil
			c.stateMu.Unlock()
			return
		}
		if ctx.Err() != nil {
			return
		}
		delay = min(max(2*delay, 250*time.Millisecond), maxRestartDelay)
		c.setFault()
		c.log.Error("postgres did not start again: trying later", "data", c.dataDir, "attempt", attempt, "next_in", delay, "disk_free", c.diskFree(), "error", err)
	}
}

// setFault records why the server is down.
func (c *Cluster) setFault() {
	fault := ErrRestarting
	if free, ok := c.freeBytes(); ok && free < lowDisk {
		fault = ErrDiskFull
	}
	c.stateMu.Lock()
	c.fault = fault
	c.stateMu.Unlock()
}

// freeBytes is the space left to unprivileged users on the data folder's file system.
func (c *Cluster) freeBytes() (uint64, bool) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(c.dataDir, &st); err != nil {
		return 0, false
	}
	return st.Bavail * uint64(st.Bsize), true
}

func (c *Cluster) diskFree() string {
	free, ok := c.freeBytes()
	if !ok {
		return "unknown"
	}
	return strconv.FormatUint(free>>10, 10) + " KiB"
}

// capLog moves the log to <log>.1 once it is over the limit and empties it. pg_ctl opened it
// for appending, so the server writes on at its new end; lines written between the copy and the
// truncation are lost.
func (c *Cluster) capLog() {
	fi, err := os.Stat(c.logPath)
	if err != nil || fi.Size() <= c.logLimit {
		return
	}
	old := c.logPath + ".1"
	if err := copyFile(c.logPath, old); err != nil {
		c.log.Warn("cannot keep the previous postgres log", "log", old, "error", err)
		return
	}
	_ = c.acct.chown(old)
	if err := os.Truncate(c.logPath, 0); err != nil {
		c.log.Warn("cannot empty the postgres log", "log", c.logPath, "error", err)
		return
	}
	c.stateMu.Lock()
	c.logFrom = 0
	c.stateMu.Unlock()
	c.log.Info("postgres log rotated", "log", c.logPath, "previous", old, "size", fi.Size())
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	tmp := to + ".tmp"
	out, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		os.Remove(tmp)
		return err
	}
	if err := out.Close(); err != nil {
		os.Remove(tmp)
		return err
	}
	return os.Rename(tmp, to)
}

// processAlive reports whether pid runs; a zombie (dead, not yet reaped) does not.
func processAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return false
	}
	if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); err == nil {
		if i := bytes.LastIndexByte(b, ')'); i > 0 && bytes.HasPrefix(b[i:], []byte(") Z")) {
			return false
		}
	}
	return true
}

// clearStaleLocks removes the lock files of a dead postmaster that is still a zombie: a new
// postmaster takes a pid that still exists for a live server and refuses to start, and where the
// parent of orphans does not reap them (make or a shell as PID 1 of a container), it would refuse
// for ever. They are removed only once no process works in the data folder any more (the old
// server's children all do), so two servers never share the data.
func (c *Cluster) clearStaleLocks(deadPID int) {
	if !isZombie(deadPID) || postmasterPIDOf(c.dataDir) != deadPID || workingIn(c.dataDir) {
		return
	}
	_ = os.Remove(filepath.Join(c.dataDir, "postmaster.pid"))
	_ = os.Remove(filepath.Join(c.sockDir, ".s.PGSQL."+strconv.Itoa(port)+".lock"))
	c.log.Warn("postgres lock files of the dead server removed: it is a zombie nobody has reaped yet", "data", c.dataDir, "pid", deadPID)
}

func isZombie(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	i := bytes.LastIndexByte(b, ')')
	return i > 0 && bytes.HasPrefix(b[i:], []byte(") Z"))
}

// workingIn reports whether a live process has dir as its working folder (or when that cannot
// be known).
func workingIn(dir string) bool {
	want, err := os.Stat(dir)
	if err != nil {
		return true
	}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return true
	}
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		if fi, err := os.Stat("/proc/" + e.Name() + "/cwd"); err == nil && os.SameFile(fi, want) {
			return true
		}
	}
	return false
}

// reapIfOurs reaps pid when it is a zombie child of this process: as PID 1 (a container without
// an init), the orphaned postmaster is ours, and while it is a zombie a new one refuses to start.
func reapIfOurs(pid int) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return
	}
	fields := strings.Fields(string(b[i+1:])) // state, ppid, ...
	if len(fields) > 1 && fields[0] == "Z" && fields[1] == strconv.Itoa(os.Getpid()) {
		var ws syscall.WaitStatus
		_, _ = syscall.Wait4(pid, &ws, syscall.WNOHANG, nil)
	}
}

// postmasterPIDOf reads the server's pid from the first line of postmaster.pid; 0 when unknown.
func postmasterPIDOf(dataDir string) int {
	b, err := os.ReadFile(filepath.Join(dataDir, "postmaster.pid"))
	if err != nil {
		return 0
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(strings.SplitN(string(b), "\n", 2)[0]))
	return pid
}

// StopLeftover stops the cluster in dataDir when one runs there although
// the process that started it is gone (killed before it could call Stop), and
// removes its socket folder. Nothing running is not an error.
func StopLeftover(dataDir string) error {
	bin, err := BinariesFor(dataDir)
	if err != nil {
		return err
	}
	acct, err := serverAccount(dataDir)
	if err != nil {
		return err
	}
	c := &Cluster{bin: bin, dataDir: dataDir, acct: acct, log: slog.New(slog.DiscardHandler)}
	ctx, cancel := context.WithTimeout(context.Background(), stopTimeout)
	defer cancel()
	running, serverPID, err := c.status(ctx)
	if err != nil || !running {
		return err
	}
	return c.stopOrphan(ctx, serverPID, readOwnerPID(dataDir+".owner"))
}

func (c *Cluster) stopOrphan(ctx context.Context, serverPID, ownerPID int) error {
	c.log.Warn("postgres left running by a process that is gone: stopping it", "data", c.dataDir, "server_pid", serverPID, "owner_pid", ownerPID)
	oldSockDir := socketDirOf(filepath.Join(c.dataDir, "postmaster.pid"))
	if out, err := c.pgctl(ctx, "stop", "-w", "-m", "fast", "-D", c.dataDir); err != nil {
		return fmt.Errorf("the PostgreSQL cluster in %s was left running (server pid %d) by process %d, which is gone, and stopping it failed (%v): %s", c.dataDir, serverPID, ownerPID, err, strings.TrimSpace(string(out)))
	}
	if oldSockDir != "" && strings.HasPrefix(filepath.Base(oldSockDir), socketPrefix) {
		_ = os.RemoveAll(oldSockDir)
	}
	return nil
}

// isPostmasterOf reports whether pid is a server running in dataDir, by its working folder (a
// postmaster works in its data folder). Without /proc it trusts pg_ctl and says yes.
func isPostmasterOf(pid int, dataDir string) bool {
	if _, err := os.Stat("/proc/self/cwd"); err != nil {
		return true
	}
	cwd, err := os.Stat(fmt.Sprintf("/proc/%d/cwd", pid))
	if err != nil {
		return false
	}
	dir, err := os.Stat(dataDir)
	return err == nil && os.SameFile(cwd, dir)
}

// socketDirOf reads the socket folder from line 5 of postmaster.pid.
func socketDirOf(pidFile string) string {
	b, err := os.ReadFile(pidFile)
	if err != nil {
		return ""
	}
	lines := strings.Split(string(b), "\n")
	if len(lines) < 5 {
		return ""
	}
	return strings.TrimSpace(lines[4])
}

func (c *Cluster) prepareDataDir(ctx context.Context, fast bool) error {
	if _, err := os.Stat(filepath.Join(c.dataDir, "PG_VERSION")); err == nil {
		return nil
	}
	entries, err := os.ReadDir(c.dataDir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		if err := os.Mkdir(c.dataDir, 0o700); err != nil {
			return fmt.Errorf("cannot create the PostgreSQL data folder: %w", err)
		}
	case err != nil:
		return fmt.Errorf("cannot read the PostgreSQL data folder: %w", err)
	case len(entries) > 0:
		return fmt.Errorf("the folder %s is not empty and holds no PostgreSQL cluster (no PG_VERSION): empty it or choose another data folder", c.dataDir)
	}
	if err := c.acct.chown(c.dataDir); err != nil {
		return err
	}
	if err := os.Chmod(c.dataDir, 0o700); err != nil {
		return err
	}

	// Sorting and comparing stay bytewise (C: fast, the same on every host),
	// but the character classes are UTF-8's, under which pg_trgm reads
	// Hangul and lower() knows letters beyond ASCII: under a C ctype the
	// search index makes no trigram of Korean (DESIGN.md, Search).
	args := []string{"-D", c.dataDir, "-U", superuser, "-E", "UTF8", "--locale=C", "--lc-ctype=" + SearchCtype, "--auth=trust"}
	if fast {
		args = append(args, "-N")
	}
	began := time.Now()
	out, err := c.run(ctx, "initdb", args...)
	if err != nil && strings.Contains(string(out), SearchCtype) {
		// A host without the C.UTF-8 locale: a C cluster still answers
		// every search, only its index does not narrow one in Korean.
		c.log.Warn("initdb: the locale "+SearchCtype+" is missing on this host; the cluster is made with C, and Korean searches read the whole search index", "output", lastLines(string(out), 3))
		args[6] = "--lc-ctype=C"
		out, err = c.run(ctx, "initdb", args...)
	}
	if err != nil {
		return fmt.Errorf("initdb %s failed (%v): %s", c.dataDir, err, lastLines(string(out), logTailLines))
	}
	c.log.Info("postgres cluster created", "data", c.dataDir, "took", time.Since(began).Round(time.Millisecond))
	return nil
}

// SearchCtype is the LC_CTYPE of the clusters this package makes.
const SearchCtype = "C.UTF-8"

// makeSocketDir makes a fresh 0700 folder for the socket, in the temporary folder when its path
// is short enough and the server's user can reach it, else in /tmp.
func (c *Cluster) makeSocketDir() (string, error) {
	var lastErr error
	for _, base := range []string{os.TempDir(), "/tmp"} {
		dir, err := os.MkdirTemp(base, socketPrefix)
		if err != nil {
			lastErr = err
			continue
		}
		if len(filepath.Join(dir, ".s.PGSQL."+strconv.Itoa(port)+".lock")) > maxSocketPath {
			os.Remove(dir)
			lastErr = fmt.Errorf("the socket path under %s is longer than %d bytes", base, maxSocketPath)
			continue
		}
		if err := c.acct.checkReach(base); err != nil {
			os.Remove(dir)
			lastErr = err
			continue
		}
		if err := c.acct.chown(dir); err != nil {
			os.Remove(dir)
			return "", err
		}
		return dir, nil
	}
	return "", fmt.Errorf("cannot make a socket folder for PostgreSQL: %w", lastErr)
}

func (c *Cluster) prepareLogFile() error {
	f, err := os.OpenFile(c.logPath, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("cannot open the PostgreSQL log %s: %w", c.logPath, err)
	}
	f.Close()
	return c.acct.chown(c.logPath)
}

// logTail returns the last lines the server logged from offset on (or before, when it logged
// nothing new).
func (c *Cluster) logTail(offset int64) string {
	b, err := os.ReadFile(c.logPath)
	if err != nil {
		return ""
	}
	if offset < int64(len(b)) && len(bytes.TrimSpace(b[offset:])) > 0 {
		b = b[offset:]
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return ""
	}
	return lastLines(string(b), logTailLines)
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// status runs pg_ctl status: running, and the server's pid when it is.
func (c *Cluster) status(ctx context.Context) (bool, int, error) {
	out, err := c.pgctl(ctx, "status", "-D", c.dataDir)
	var exitErr *exec.ExitError
	switch {
	case err == nil:
		pid := 0
		if b, err := os.ReadFile(filepath.Join(c.dataDir, "postmaster.pid")); err == nil {
			pid, _ = strconv.Atoi(strings.TrimSpace(strings.SplitN(string(b), "\n", 2)[0]))
		}
		if pid == 0 {
			if m := statusPID.FindSubmatch(out); m != nil {
				pid, _ = strconv.Atoi(string(m[1]))
			}
		}
		return true, pid, nil
	case errors.As(err, &exitErr) && (exitErr.ExitCode() == 3 || exitErr.ExitCode() == 4):
		return false, 0, nil
	default:
		return false, 0, fmt.Errorf("pg_ctl status -D %s failed (%v): %s", c.dataDir, err, strings.TrimSpace(string(out)))
	}
}

func (c *Cluster) pgctl(ctx context.Context, args ...string) ([]byte, error) {
	return c.run(ctx, "pg_ctl", args...)
}

// run runs one of the server programs as the server's user, in its own process group so that a
// Ctrl-C at the terminal does not reach it (nor the postmaster that pg_ctl start leaves behind).
func (c *Cluster) run(ctx context.Context, program string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, filepath.Join(c.bin, program), args...)
	cmd.Dir = "/"
	cmd.Env = serverEnv()
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Credential: c.acct.cred}
	cmd.WaitDelay = 5 * time.Second
	c.log.Debug("postgres command", "program", program, "args", args)
	return cmd.CombinedOutput()
}

// serverEnv is this process's environment without the PG* variables (PGPORT, PGDATA, ...), which
// would change what the server programs do.
func serverEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PG") {
			env = append(env, kv)
		}
	}
	return append(env, "LC_ALL=C")
}

func (c *Cluster) createDatabase(ctx context.Context) error {
	if c.database == "postgres" {
		return nil
	}
	db := sql.OpenDB(pgdriver.NewConnector(pgdriver.WithDSN(c.urlFor("postgres"))))
	defer db.Close()
	var one int
	err := db.QueryRowContext(ctx, "SELECT 1 FROM pg_database WHERE datname = $1", c.database).Scan(&one)
	if err == nil {
		return nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("cannot look up the database %s in the PostgreSQL cluster in %s: %w", c.database, c.dataDir, err)
	}
	if _, err := db.ExecContext(ctx, "CREATE DATABASE "+quoteIdent(c.database)); err != nil {
		var pgErr pgdriver.Error
		if errors.As(err, &pgErr) && pgErr.Field('C') == "42P04" {
			return nil
		}
		return fmt.Errorf("cannot create the database %s in the PostgreSQL cluster in %s: %w", c.database, c.dataDir, err)
	}
	c.log.Info("postgres database created", "database", c.database)
	return nil
}

func quoteIdent(s string) string {
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

var statusPID = regexp.MustCompile(`PID: (\d+)`)

var shellSafe = regexp.MustCompile(`^[A-Za-z0-9_./:=,+@%-]+$`)

// shellJoin quotes words for /bin/sh, which pg_ctl hands its -o options to.
func shellJoin(words []string) string {
	quoted := make([]string, len(words))
	for i, w := range words {
		if shellSafe.MatchString(w) {
			quoted[i] = w
		} else {
			quoted[i] = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
		}
	}
	return strings.Join(quoted, " ")
}
