// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package importer

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"events/internal/client"
	"events/models"
)

// Sending. Each record is one create with its Idempotency-Key (Record.Key),
// then, for a completed or cancelled entry, one operation with a key of its
// own. What a rerun meets:
//
//   - a create the service already stored from this file: the key's replay
//     (within 24 hours, same body) or the duplicate-source 409 (any time):
//     "already there";
//   - a create stored by a run cut off before its operation: the event is
//     there, so the rerun reads its history and performs the operation
//     unless the history already holds one (a complete or cancel undone by
//     hand since is left undone);
//   - a request whose answer was lost: the same key again, which the
//     service answers with what it stored, so nothing is doubled.
//
// A refusal (4xx) refuses that record only; the service unreachable or
// overloaded past the retries stops the run, which a rerun resumes.

// ExistingProjects answers which of names already name a project on the
// service behind c, each asked of GET /api/events/names (which reads the
// service's recently changed events): a Timewarrior tag among them is its
// interval's project without --project-tags. A name no project tag could
// be (too long, with a control character) is not asked.
func ExistingProjects(ctx context.Context, c *client.Client, names []string) ([]string, error) {
	var out []string
	for _, n := range names {
		if n == "" || utf8.RuneCountInString(n) > models.MaxProjectTag || strings.ContainsFunc(n, unicode.IsControl) || !utf8.ValidString(n) {
			continue
		}
		found, err := c.Names(ctx, "project", n, 50)
		if err != nil {
			return nil, err
		}
		for _, f := range found {
			if f.Name == n {
				out = append(out, n)
				break
			}
		}
	}
	return out, nil
}

// Summary is what a run did.
type Summary struct {
	DryRun   bool
	Created  int // new events (a dry run: events that would be created)
	Already  int // stored by an earlier run
	Finished int // operations an earlier run left undone, done now
	Refused  []Refusal
	// Unfinished are events created (or found) whose complete or cancel
	// failed: a rerun finishes them.
	Unfinished []Refusal
	Notes      []string
}

// RunOptions of Run.
type RunOptions struct {
	DryRun bool
	// Now and Zone check a dry run's records as the service would.
	Now  time.Time
	Zone *time.Location
	// Progress is called after each record.
	Progress func()
	// Retries of a request that got no answer or a 503 (default 5).
	Retries int
}

// Run sends p's records through c in the file's order. The error is a
// stop: the records before it are in Summary.
func Run(ctx context.Context, c *client.Client, p Parsed, o RunOptions) (Summary, error) {
	r := NewRunner(c, o)
	for _, rec := range p.Records {
		if err := r.Add(ctx, rec); err != nil {
			return r.Summary(p), err
		}
	}
	return r.Summary(p), nil
}

// Runner sends records one at a time, as Scan reads them, so that an
// import holds one record of its file, not all of them.
type Runner struct {
	c *client.Client
	o RunOptions
	s Summary
}

// NewRunner is a Runner through c.
func NewRunner(c *client.Client, o RunOptions) *Runner {
	if o.Retries == 0 {
		o.Retries = 5
	}
	if o.Zone == nil {
		o.Zone = time.UTC
	}
	return &Runner{c: c, o: o, s: Summary{DryRun: o.DryRun}}
}

// Add checks (a dry run) or sends one record. The error is a stop.
func (r *Runner) Add(ctx context.Context, rec Record) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	var err error
	if r.o.DryRun {
		check(rec, r.o, &r.s)
	} else {
		err = send(ctx, r.c, rec, r.o, &r.s)
	}
	if r.o.Progress != nil {
		r.o.Progress()
	}
	if err != nil {
		return fmt.Errorf("stopped at line %d: %w; run the same command again to go on (nothing is doubled)", rec.Line, err)
	}
	return nil
}

// Summary is what the run did, with what the file's reading (p) refused
// and noted, refusals in the order of their lines.
func (r *Runner) Summary(p Parsed) Summary {
	s := r.s
	s.Refused = append(slices.Clone(p.Refused), s.Refused...)
	s.Notes = p.Notes
	slices.SortStableFunc(s.Refused, func(a, b Refusal) int { return a.Line - b.Line })
	return s
}

// check validates a record as the service's create would, without
// sending it: the same decoding and rules, in-process (the dedup and the
// database's constraints are the service's alone).
func check(r Record, o RunOptions, s *Summary) {
	in, err := models.DecodeJSON(r.Body(), models.CreateFields)
	if err == nil {
		_, err = in.NewEvent(o.Now, o.Zone)
	}
	if err != nil {
		s.Refused = append(s.Refused, Refusal{Line: r.Line, Reason: "the service would refuse it: " + err.Error(), Text: clip(string(r.Body()), 300)})
		return
	}
	s.Created++
}

func send(ctx context.Context, c *client.Client, r Record, o RunOptions, s *Summary) error {
	key := r.Key()
	var created client.Created
	retried := false
	err := retry(ctx, o.Retries, func() error {
		var err error
		created, err = c.Create(ctx, r.Body(), key)
		if err != nil {
			retried = true
		}
		return err
	})
	var id int64
	switch existing, dup := client.Duplicate(err); {
	case err == nil && created.Replayed && !retried:
		// stored by an earlier run with this very key
		s.Already++
		id = created.Event.ID
		if r.Then != "" {
			return finish(ctx, c, r, id, o, s)
		}
		return nil
	case err == nil:
		s.Created++
		id = created.Event.ID
	case dup:
		s.Already++
		if r.Then != "" {
			return finish(ctx, c, r, existing, o, s)
		}
		return nil
	default:
		if fatal(err) {
			return err
		}
		s.Refused = append(s.Refused, Refusal{Line: r.Line, Reason: "refused by the service: " + err.Error(), Text: clip(string(r.Body()), 300)})
		return nil
	}
	if r.Then == "" {
		return nil
	}
	err = operate(ctx, c, r, id, o)
	if err != nil {
		if fatal(err) {
			return err
		}
		s.Unfinished = append(s.Unfinished, Refusal{Line: r.Line, Reason: fmt.Sprintf("created as event %d, but the %s after it failed (%v); run the import again to finish it", id, r.Then, err)})
	}
	return nil
}

// finish performs r.Then on an event an earlier run created, unless its
// history shows the operation already.
func finish(ctx context.Context, c *client.Client, r Record, id int64, o RunOptions, s *Summary) error {
	var rows []client.HistoryRow
	err := retry(ctx, o.Retries, func() error {
		var err error
		rows, err = c.History(ctx, id)
		return err
	})
	if err == nil {
		for _, h := range rows {
			if h.ChangeKind == r.Then {
				return nil
			}
		}
		if err = operate(ctx, c, r, id, o); err == nil {
			s.Finished++
			return nil
		}
	}
	if fatal(err) {
		return err
	}
	s.Unfinished = append(s.Unfinished, Refusal{Line: r.Line, Reason: fmt.Sprintf("event %d is there, but its %s failed (%v)", id, r.Then, err)})
	return nil
}

func operate(ctx context.Context, c *client.Client, r Record, id int64, o RunOptions) error {
	return retry(ctx, o.Retries, func() error {
		_, err := c.OperateAt(ctx, id, r.Then, r.Key()+"-"+r.Then, r.At)
		return err
	})
}

// retry runs f again while the service is unreachable, overloaded (503,
// 429) or still busy with the same key (409 idempotency-in-flight).
func retry(ctx context.Context, n int, f func() error) error {
	wait := 200 * time.Millisecond
	for i := 0; ; i++ {
		err := f()
		if err == nil || !transient(err) || i >= n {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
		wait = min(2*wait, 5*time.Second)
	}
}

func transient(err error) bool {
	var u *client.Unreachable
	if errors.As(err, &u) {
		return true
	}
	var p *client.Problem
	if errors.As(err, &p) {
		return p.Status == http.StatusServiceUnavailable || p.Status == http.StatusTooManyRequests ||
			(p.Status == http.StatusConflict && p.Kind() == "idempotency-in-flight")
	}
	return false
}

// fatal errors stop the run: no answer, the service down or overloaded past
// the retries, or a credential it refuses (every other record would meet
// the same).
func fatal(err error) bool {
	if transient(err) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return true
	}
	var p *client.Problem
	return errors.As(err, &p) && (p.Status == http.StatusUnauthorized || p.Status == http.StatusForbidden)
}
