package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"events/cmd/internal/harness"
)

// sample is one run of one scenario.
type sample struct {
	rps      float64 // service, at saturation
	p50, p99 time.Duration
	rate     float64 // the constant rate of the latency step
	pgTPS    float64 // pgbench, in service requests per second
	cpuMs    float64 // service CPU time per request at saturation
	errors   uint64  // non-2xx or failed requests, both steps
}

func measure(ctx context.Context, e *env) error {
	list := scenarios()
	if e.o.scenarios != "" {
		want := strings.Split(e.o.scenarios, ",")
		list = slices.DeleteFunc(list, func(s *scenario) bool { return !slices.Contains(want, s.key) })
	}
	if err := cleanup(ctx, e); err != nil {
		return err
	}
	if err := capture(ctx, e, list); err != nil {
		return err
	}
	plans, err := explain(ctx, e, list)
	if err != nil {
		return err
	}
	fmt.Println(plans)

	results := map[string][]sample{}
	for r := 1; r <= e.o.runs; r++ {
		for _, s := range list {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			sm, err := measureOne(ctx, e, s, r)
			if err != nil {
				return fmt.Errorf("%s: %w", s.key, err)
			}
			results[s.key] = append(results[s.key], sm)
			say("run %d %-9s %7.0f req/s  p50 %6.2f ms  p99 %6.2f ms at %5.0f/s  pgbench %7.0f/s  ratio %4.2f  cpu %.3f ms/req  errors %d  load %s",
				r, s.key, sm.rps, ms(sm.p50), ms(sm.p99), sm.rate, sm.pgTPS, ratio(sm.rps, sm.pgTPS), sm.cpuMs, sm.errors, loadavg())
		}
	}
	hwm := harness.StatusKiB(e.service.Pid(), "VmHWM")
	table := report(e, list, results, hwm)
	fmt.Println(table)
	if sec, err := cliff(ctx, e); err != nil {
		return err
	} else {
		table += "\n" + sec
	}
	out := table + "\n## Plans\n\n" + plans
	if err := os.MkdirAll(filepath.Dir(e.o.out), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(e.o.out, []byte(out), 0o644); err != nil {
		return err
	}
	say("written to %s", e.o.out)
	return nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

func loadavg() string {
	b, _ := os.ReadFile("/proc/loadavg")
	return strings.Join(strings.Fields(string(b))[:3], " ")
}

// measureOne: saturation, latency at half of it, then pgbench of the same
// statements.
func measureOne(ctx context.Context, e *env, s *scenario, run int) (sample, error) {
	var sm sample
	before, err := harness.CPUTicks(e.service.Pid())
	if err != nil {
		return sm, err
	}
	var prof chan error
	if e.o.pprof != "" && run == 1 && e.service.Pprof != "" {
		prof = make(chan error, 1)
		go func() { prof <- profile(e, s.key) }()
	}
	atk := vegeta.NewAttacker(vegeta.Workers(uint64(e.o.conns)), vegeta.MaxWorkers(uint64(e.o.conns)),
		vegeta.Connections(e.o.conns), vegeta.MaxConnections(e.o.conns), vegeta.KeepAlive(true), vegeta.Timeout(30*time.Second))
	sat := attack(atk, s.targeter(e), vegeta.Rate{Freq: 0}, e.o.step, s.key)
	after, err := harness.CPUTicks(e.service.Pid())
	if err != nil {
		return sm, err
	}
	if prof != nil {
		if err := <-prof; err != nil {
			say("profile %s: %v", s.key, err)
		}
	}
	sm.rps = sat.Throughput
	if sat.Requests > 0 {
		sm.cpuMs = float64(after-before) * 1000 / harness.TicksPerSecond / float64(sat.Requests)
	}
	sm.errors = sat.Requests - uint64(float64(sat.Requests)*sat.Success+0.5)
	if sm.rps < 2 {
		return sm, fmt.Errorf("the service served %.1f requests a second (%v; %v)", sm.rps, sat.StatusCodes, sat.Errors)
	}
	if s.write {
		if err := cleanup(ctx, e); err != nil {
			return sm, err
		}
	}

	sm.rate = sm.rps / 2
	// a few more workers than connections, so that a slow answer does not
	// hold up the constant rate; the connections stay bounded, as a real
	// client's pool would
	atk = vegeta.NewAttacker(vegeta.Workers(uint64(e.o.conns)), vegeta.MaxWorkers(uint64(4*e.o.conns)),
		vegeta.Connections(4*e.o.conns), vegeta.MaxConnections(4*e.o.conns), vegeta.KeepAlive(true), vegeta.Timeout(30*time.Second))
	lat := attack(atk, s.targeter(e), vegeta.Rate{Freq: int(sm.rate + 0.5), Per: time.Second}, e.o.step, s.key)
	sm.p50, sm.p99 = lat.Latencies.P50, lat.Latencies.P99
	sm.errors += lat.Requests - uint64(float64(lat.Requests)*lat.Success+0.5)
	if s.write {
		if err := cleanup(ctx, e); err != nil {
			return sm, err
		}
	}

	if s.script != "" {
		tps, err := pgbench(ctx, e, s)
		if err != nil {
			return sm, err
		}
		sm.pgTPS = tps * float64(s.perTx)
		if s.write {
			if err := cleanup(ctx, e); err != nil {
				return sm, err
			}
		}
	}
	return sm, nil
}

func attack(atk *vegeta.Attacker, tr vegeta.Targeter, p vegeta.Pacer, d time.Duration, name string) vegeta.Metrics {
	var m vegeta.Metrics
	for res := range atk.Attack(tr, p, d, name) {
		m.Add(res)
	}
	m.Close()
	return m
}

var tpsLine = regexp.MustCompile(`(?m)^tps = ([0-9.]+) \(without initial connection time\)`)

// pgbench runs the scenario's script with as many clients as the service
// has HTTP connections, on the load generator's CPU.
func pgbench(ctx context.Context, e *env, s *scenario) (float64, error) {
	script := filepath.Join(e.o.dir, s.key+".pgbench")
	threads := 1
	if !e.o.pin {
		threads = min(e.o.conns, runtime.NumCPU())
	}
	args := []string{"-n", "-M", "simple", "-c", strconv.Itoa(e.o.conns), "-j", strconv.Itoa(threads),
		"-T", strconv.Itoa(int(e.o.step.Seconds())), "-f", script,
		"-h", e.sockDir, "-p", "5432", "-U", "events", "events"}
	cmd := exec.CommandContext(ctx, pgbenchPath(), args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	m := tpsLine.FindStringSubmatch(out.String())
	if err != nil || m == nil {
		return 0, fmt.Errorf("pgbench %s: %v\n%s%s", strings.Join(args, " "), err, out.String(), lastLines(errb.String(), 10))
	}
	if strings.Contains(errb.String(), "ERROR") {
		return 0, fmt.Errorf("pgbench %s reported errors:\n%s", s.key, lastLines(errb.String(), 10))
	}
	return strconv.ParseFloat(m[1], 64)
}

func pgbenchPath() string {
	if p, err := exec.LookPath("pgbench"); err == nil {
		return p
	}
	matches, _ := filepath.Glob("/usr/lib/postgresql/*/bin/pgbench")
	if len(matches) > 0 {
		sort.Strings(matches)
		return matches[len(matches)-1]
	}
	return "pgbench"
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// profile saves a CPU profile of most of the saturation step, then the
// allocation profile.
func profile(e *env, key string) error {
	if err := os.MkdirAll(e.o.pprof, 0o755); err != nil {
		return err
	}
	secs := max(1, int(e.o.step.Seconds())-1)
	fetch := func(path, file string) error {
		res, err := http.Get(e.service.Pprof + path)
		if err != nil {
			return err
		}
		defer res.Body.Close()
		if res.StatusCode != http.StatusOK {
			return fmt.Errorf("%s: %s", path, res.Status)
		}
		f, err := os.Create(filepath.Join(e.o.pprof, file))
		if err != nil {
			return err
		}
		defer f.Close()
		_, err = io.Copy(f, res.Body)
		return err
	}
	if err := fetch(fmt.Sprintf("/debug/pprof/profile?seconds=%d", secs), key+".cpu.pprof"); err != nil {
		return err
	}
	return fetch("/debug/pprof/allocs", key+".allocs.pprof")
}

// explain prints EXPLAIN (ANALYZE, BUFFERS) of the listings' statements.
func explain(ctx context.Context, e *env, list []*scenario) (string, error) {
	var b strings.Builder
	for _, s := range list {
		if !s.explain {
			continue
		}
		for _, st := range s.sql {
			// a statement of a request carries its deadline first (app/deadline.go)
			if rest, ok := strings.CutPrefix(strings.TrimSpace(st), "SET LOCAL statement_timeout"); ok {
				_, st, _ = strings.Cut(rest, ";")
			}
			if st = strings.TrimSpace(st); !strings.HasPrefix(st, "SELECT") && !strings.HasPrefix(st, "WITH") {
				continue
			}
			var lines []string
			if err := e.db.NewRaw("EXPLAIN (ANALYZE, BUFFERS) "+st).Scan(ctx, &lines); err != nil {
				return "", fmt.Errorf("explain %s: %w", s.key, err)
			}
			fmt.Fprintf(&b, "### %s\n\n```text\n%s\n```\n\n", s.name, strings.Join(lines, "\n"))
		}
	}
	return b.String(), nil
}

func median[T any](xs []T, f func(T) float64) float64 {
	v := make([]float64, len(xs))
	for i, x := range xs {
		v[i] = f(x)
	}
	sort.Float64s(v)
	if len(v) == 0 {
		return 0
	}
	if len(v)%2 == 1 {
		return v[len(v)/2]
	}
	return (v[len(v)/2-1] + v[len(v)/2]) / 2
}

// report is the Markdown table of the medians.
func report(e *env, list []*scenario, results map[string][]sample, hwmKiB int64) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# events benchmark\n\n")
	fmt.Fprintf(&b, "%s; %s; %d events (seeded in %s); %d connections; %d s per step; medians of %d runs; taken %s.\n\n",
		machine(), pgVersion(e), e.o.events, e.seedTime.Round(time.Second), e.o.conns, int(e.o.step.Seconds()), e.o.runs,
		time.Now().UTC().Format("2006-01-02 15:04 UTC"))
	if e.o.pin {
		b.WriteString("CPU 0: the load generator (vegeta in the harness) and pgbench; CPU 1: the service and PostgreSQL.\n\n")
	} else {
		b.WriteString("No pinning: the load generator, the service and PostgreSQL share every CPU.\n\n")
	}
	b.WriteString("| scenario | service req/s | p50 ms | p99 ms | at req/s | pgbench req/s | service/pgbench | CPU ms/req | errors |\n")
	b.WriteString("|---|--:|--:|--:|--:|--:|--:|--:|--:|\n")
	for _, s := range list {
		rs := results[s.key]
		pg, rat := "–", "–"
		if s.script != "" {
			pg = fmt.Sprintf("%.0f", median(rs, func(x sample) float64 { return x.pgTPS }))
			rat = fmt.Sprintf("%.0f%%", 100*median(rs, func(x sample) float64 { return ratio(x.rps, x.pgTPS) }))
		}
		var errs uint64
		for _, x := range rs {
			errs += x.errors
		}
		fmt.Fprintf(&b, "| %s | %.0f | %.2f | %.2f | %.0f | %s | %s | %.3f | %d |\n", s.name,
			median(rs, func(x sample) float64 { return x.rps }),
			median(rs, func(x sample) float64 { return ms(x.p50) }),
			median(rs, func(x sample) float64 { return ms(x.p99) }),
			median(rs, func(x sample) float64 { return x.rate }),
			pg, rat,
			median(rs, func(x sample) float64 { return x.cpuMs }),
			errs)
	}
	fmt.Fprintf(&b, "\nPeak RSS of the service (VmHWM): %.1f MiB.\n", float64(hwmKiB)/1024)
	return b.String()
}

func machine() string {
	model := "unknown CPU"
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "model name"); ok {
				model = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(v), ":"))
				break
			}
		}
	}
	return fmt.Sprintf("%d × %s, %s/%s", runtime.NumCPU(), model, runtime.GOOS, runtime.GOARCH)
}

func pgVersion(e *env) string {
	var v string
	if err := e.db.NewRaw("SHOW server_version").Scan(context.Background(), &v); err != nil {
		return "PostgreSQL ?"
	}
	return "PostgreSQL " + strings.Fields(v)[0]
}
