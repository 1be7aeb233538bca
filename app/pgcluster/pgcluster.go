// Package pgcluster runs a private PostgreSQL cluster from the server programs installed on the
// machine. The cluster listens on a Unix socket only, in a fresh folder that only its user (and
// root) can enter, so it never meets another PostgreSQL server.
package pgcluster

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
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
}

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

	mu      sync.Mutex
	stopped bool
	stopErr error
}

// Start starts the cluster in opts.DataDir, creating it with initdb on first use, and creates
// opts.Database when missing. As root, PostgreSQL runs as the owner of an existing data folder
// when that is not root, else as the user postgres. A cluster that is already running there is
// refused while the process that started it lives, and stopped and started again when that
// process is gone.
func Start(ctx context.Context, opts Options) (*Cluster, error) {
	if opts.DataDir == "" {
		return nil, errors.New("pgcluster: no data folder given")
	}
	dataDir, err := filepath.Abs(opts.DataDir)
	if err != nil {
		return nil, err
	}
	if strings.ContainsAny(dataDir, "\"$`\\\n") {
		return nil, fmt.Errorf("the PostgreSQL data folder %q contains a character pg_ctl cannot quote (\" $ ` \\ or a newline): choose another folder", dataDir)
	}
	bin, err := FindBinaries()
	if err != nil {
		return nil, err
	}
	acct, err := serverAccount(dataDir)
	if err != nil {
		return nil, err
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	database := opts.Database
	if database == "" {
		database = "postgres"
	}
	c := &Cluster{
		bin:      bin,
		dataDir:  dataDir,
		logPath:  dataDir + ".log",
		database: database,
		acct:     acct,
		log:      log,
	}

	parent := filepath.Dir(dataDir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, fmt.Errorf("cannot create the folder %s for the PostgreSQL data: %w", parent, err)
	}
	if err := acct.checkReach(parent); err != nil {
		return nil, err
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
		_ = c.Stop()
		return nil, err
	}
	log.Info("postgres started", "data", dataDir, "socket", c.sockDir, "user", acct.name, "took", time.Since(began).Round(time.Millisecond))
	return c, nil
}

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

	opts := []string{"-k", sockDir, "-p", strconv.Itoa(port), "-c", "listen_addresses=",
		// bun writes arguments into the SQL text: the log of a failed
		// statement would hold titles and descriptions, and so would the
		// DETAIL of a broken constraint ("Failing row contains ...").
		"-c", "log_min_error_statement=panic", "-c", "log_error_verbosity=terse"}
	if fast {
		opts = append(opts, "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off")
	}
	var logStart int64
	if fi, err := os.Stat(c.logPath); err == nil {
		logStart = fi.Size()
	}
	out, err := c.pgctl(ctx, "start", "-w", "-t", "60", "-D", c.dataDir, "-l", c.logPath, "-o", shellJoin(opts))
	if err != nil {
		if ctx.Err() != nil {
			stopCtx, cancel := context.WithTimeout(context.Background(), stopTimeout)
			_, _ = c.pgctl(stopCtx, "stop", "-w", "-m", "immediate", "-D", c.dataDir)
			cancel()
		}
		os.RemoveAll(sockDir)
		if tail := c.logTail(logStart); tail != "" {
			return fmt.Errorf("PostgreSQL in %s did not start (pg_ctl: %v); the end of its log %s:\n%s", c.dataDir, err, c.logPath, tail)
		}
		return fmt.Errorf("PostgreSQL in %s did not start (pg_ctl: %v): %s", c.dataDir, err, strings.TrimSpace(string(out)))
	}
	return nil
}

// StopLeftover stops the cluster in dataDir when one runs there although
// the process that started it is gone (killed before it could call Stop), and
// removes its socket folder. Nothing running is not an error.
func StopLeftover(dataDir string) error {
	bin, err := FindBinaries()
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

	args := []string{"-D", c.dataDir, "-U", superuser, "-E", "UTF8", "--locale=C", "--auth=trust"}
	if fast {
		args = append(args, "-N")
	}
	began := time.Now()
	out, err := c.run(ctx, "initdb", args...)
	if err != nil {
		return fmt.Errorf("initdb %s failed (%v): %s", c.dataDir, err, lastLines(string(out), logTailLines))
	}
	c.log.Info("postgres cluster created", "data", c.dataDir, "took", time.Since(began).Round(time.Millisecond))
	return nil
}

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
