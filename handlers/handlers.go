// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

// Package handlers is the HTTP surface of the service on Fiber: the route
// table, request decoding, the one error mapper, and the two renderings of
// every answer (JSON for API clients, an HTML fragment for htmx).
package handlers

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/recover"
	"github.com/valyala/fasthttp"

	"events/app"
	"events/docs"
	"events/internal/i18n"
	"events/models"
)

// BodyLimit is the largest request body accepted (413 above it).
const BodyLimit = 256 << 10

// defaultNotesURL is the sidebar's Notes entry when EVENTS_NOTES_URL is not
// set; the service then answers it with a page that says what it is for.
const defaultNotesURL = "/notes"

// Options configure the HTTP surface.
type Options struct {
	RequestTimeout time.Duration // the deadline of a handler and its statements; default 10s
	// ReadTimeout bounds reading one request, headers and body (default
	// 30s): a client that trickles its body is cut off with 408.
	// WriteTimeout bounds writing an answer (default 30s); IdleTimeout a
	// keep-alive connection between requests (default 60s).
	ReadTimeout, WriteTimeout, IdleTimeout time.Duration
	TrustedProxies                         []string
	NotesURL                               string // the sidebar's Notes entry; default /notes
	// Language is the pages' language for a browser that asks for none of
	// the catalogue's (EVENTS_LANGUAGE); default English. See language.go.
	Language *i18n.Lang
	// Auth: not Enabled serves only loopback clients (EVENTS_AUTH=off:
	// everyone); nil authenticates nothing (tests that embed the handlers).
	Auth   *app.Auth
	Logger *slog.Logger
	// DatabaseFault, when set, says why the database is away (app.ErrDiskFull, or nil when it
	// is not known): the answers of requests that found it away say so.
	DatabaseFault func() error
	// MaxInFlight is how many requests may do work at once (default: two
	// per connection of the database pool, app.PoolSize); QueueWait how long
	// a request waits for one of them before it is refused with 503 and
	// Retry-After (default 500ms). See admission.go.
	MaxInFlight int
	QueueWait   time.Duration
	// LoginSlots is how many logins may check a password at once, in slots
	// of their own (default: one per two CPUs, at least one); a login waits
	// QueueWait for one. LoginsPerMinute is how many failed logins a minute
	// across all clients pass at once, beyond which each login waits its
	// turn (default DefaultLoginsPerMinute). See auth.go.
	LoginSlots      int
	LoginsPerMinute int
	// ExportTimeout is the deadline of an export's whole run, its reading
	// and its writing (default 5m): a file not whole by then is aborted.
	ExportTimeout time.Duration
	// MaxExports is how many exports run at once (default DefaultMaxExports).
	MaxExports int
	// Backups, when set, tells /readyz the newest backup the service took
	// itself.
	Backups func() BackupStatus
}

// BackupStatus is the state of the service's own backups.
type BackupStatus struct {
	Last  time.Time     // when the newest backup was written; zero: none yet
	Every time.Duration // EVENTS_BACKUP_EVERY
}

// Handlers serves the routes over one app.Service.
type Handlers struct {
	svc  *app.Service
	opts Options
	log  *slog.Logger
	// static is the files of static/, hashed and compressed at start
	static *assets
	// admission bounds the requests doing work at once; logins the logins
	// checking a password at once
	admission, logins *admission
	// exports holds a token per export running (export.go)
	exports chan struct{}
	// ahead paces the logins checked ahead of the queue (auth.go)
	ahead loginLane
	// searches counts the searches running per credential (searchcap.go)
	searches searchSlots
	// views are the templates (templates.go) of each language, for the
	// answers that draw their rows beside them (splice.go)
	views map[*i18n.Lang]fiber.Views
}

// setDefaults fills in each option left zero with its default.
func (opts *Options) setDefaults() {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.NotesURL == "" {
		opts.NotesURL = defaultNotesURL
	}
	if opts.Language == nil {
		opts.Language = i18n.English
	}
	for _, d := range []struct {
		p   *time.Duration
		def time.Duration
	}{{&opts.RequestTimeout, 10 * time.Second}, {&opts.ReadTimeout, 30 * time.Second},
		{&opts.WriteTimeout, 30 * time.Second}, {&opts.IdleTimeout, 60 * time.Second},
		{&opts.ExportTimeout, 5 * time.Minute}} {
		if *d.p == 0 {
			*d.p = d.def
		}
	}
	if opts.MaxInFlight <= 0 {
		opts.MaxInFlight = inFlightPerConn * app.PoolSize()
	}
	if opts.MaxExports <= 0 {
		opts.MaxExports = DefaultMaxExports
	}
	if opts.QueueWait <= 0 {
		opts.QueueWait = defaultQueueWait
	}
	if opts.LoginSlots <= 0 {
		opts.LoginSlots = max(1, runtime.GOMAXPROCS(0)/2)
	}
	if opts.LoginsPerMinute <= 0 {
		opts.LoginsPerMinute = DefaultLoginsPerMinute
	}
}

// New returns the Fiber app of the service, its templates loaded and checked.
func New(svc *app.Service, opts Options) (*fiber.App, error) {
	opts.setDefaults()
	h := &Handlers{svc: svc, opts: opts, log: opts.Logger, admission: newAdmission(opts.MaxInFlight, opts.QueueWait),
		logins: newAdmission(opts.LoginSlots, opts.QueueWait), exports: make(chan struct{}, opts.MaxExports)}
	files, err := embeddedAssets()
	if err != nil {
		return nil, err
	}
	h.static = files
	h.views = make(map[*i18n.Lang]fiber.Views)
	for _, l := range i18n.Langs() {
		engine, err := newEngine(l, svc.Zone(), files)
		if err != nil {
			return nil, err
		}
		h.views[l] = engine
	}
	f := fiber.New(fiber.Config{
		AppName:                 "events",
		Views:                   h.views[opts.Language], // c.Render: the default language; answers use h.page (language.go)
		ErrorHandler:            h.errorHandler,
		JSONEncoder:             models.EncodeJSON,
		BodyLimit:               BodyLimit,
		ReadTimeout:             opts.ReadTimeout,
		WriteTimeout:            opts.WriteTimeout,
		IdleTimeout:             opts.IdleTimeout,
		EnableTrustedProxyCheck: true,
		TrustedProxies:          opts.TrustedProxies,
		DisableStartupMessage:   true,
		// A list answer is tens of KB: a buffer that holds it whole goes out
		// in one write, not the headers and then the body in pieces.
		WriteBufferSize: 64 << 10,
		// Heads of up to 64 KiB: the cookies of other apps on the same site
		// ride along with the session's (fasthttp's default is 4 KiB).
		ReadBufferSize: HeadLimit,
		// Without it, every keep-alive connection keeps both buffers above
		// and its largest answer body for as long as it stays open (500
		// connections: 70 MiB of buffers alone). With it, a connection
		// takes a read buffer from a pool while a request arrives and a
		// write buffer while its answer goes out, and waits for the next
		// request with none.
		ReduceMemoryUsage: true,
	})
	// fasthttp quotes the request it could not parse in its error, headers
	// (Authorization, Cookie) included; that error reaches the log and the
	// answer, so it must not carry them.
	f.Server().SecureErrorLogMessage = true
	h.routes(f)
	// Fiber lists the mounted apps on the first c.Render of the process,
	// unguarded, while every error answer reads that list: under a flood
	// right after start the first renders raced with it (seen under -race).
	// One render before serving builds it.
	c := f.AcquireCtx(&fasthttp.RequestCtx{})
	err = c.Render("partials/problem", problemFor(errBusy))
	f.ReleaseCtx(c)
	if err != nil {
		return nil, err
	}
	return f, nil
}

// routes is the whole surface of the service, on one page.
func (h *Handlers) routes(f *fiber.App) {
	f.Use(requestID)
	f.Use(h.language) // the pages' language (language.go)
	f.Use(h.logRequests)
	f.Use(h.compress)
	f.Use(recover.New(recover.Config{EnableStackTrace: true, StackTraceHandler: h.logPanic}))
	f.Use(securityHeaders)
	f.Use(strictFraming)
	f.Use(strictHead) // a header block over 64 KiB, two Authorization headers (head.go)
	f.Use(h.deadline)

	f.Get("/healthz", h.healthz)
	f.Get("/readyz", h.readyz)
	f.Use("/static/", h.static.serve) // hashed, cached and compressed once (assets.go)
	route(f, "/api/openapi.json", map[string]fiber.Handler{"GET": openAPI})
	route(f, "/problems/:type", map[string]fiber.Handler{"GET": h.problemPage}) // the pages of the problem types (problems.go)

	// Without a password or a token, only this machine is served (auth.go).
	f.Use(h.loopbackOnly)
	// A login checks its password in a login slot (LoginSlots), never in a
	// work slot: a flood of logins leaves the work slots to the owner. The
	// login page is work like any other page.
	route(f, "/language/:code", map[string]fiber.Handler{"GET": h.chooseLanguage}) // the sidebar's links (language.go)
	route(f, "/login", map[string]fiber.Handler{
		"GET":  func(c *fiber.Ctx) error { return h.inSlot(c, func() error { return h.loginPage(c) }) },
		"POST": h.login,
	})

	// Everything below does work: at most MaxInFlight at once, the excess
	// refused with 503 after a short wait, the owner's requests admitted
	// before anonymous ones (admission.go). What is above never waits.
	f.Use(h.admit)
	f.Get("/", func(c *fiber.Ctx) error { return c.Redirect("/events") })

	// Everything below needs the owner, when authentication is on.
	f.Use(h.authenticate)
	route(f, "/logout", map[string]fiber.Handler{"POST": h.logout})
	route(f, "/events", map[string]fiber.Handler{"GET": h.eventsPage})
	route(f, "/events/new", map[string]fiber.Handler{"GET": h.newPage})
	route(f, "/events/review", map[string]fiber.Handler{"GET": h.reviewPage}) // before /events/:id
	route(f, "/events/search", map[string]fiber.Handler{"GET": h.searchPageView})
	route(f, "/events/:id", map[string]fiber.Handler{"GET": h.detailPage})
	if h.opts.NotesURL == defaultNotesURL {
		route(f, defaultNotesURL, map[string]fiber.Handler{"GET": h.notesPage})
	}

	api := f.Group("/api/events")
	for _, l := range listings { // before /:id, which would take a listing's name for an id
		methods := map[string]fiber.Handler{"GET": h.listing(l)}
		if l.Path == "" {
			methods["POST"] = h.create
		}
		route(api, l.Path, methods)
	}
	route(api, "/summary", map[string]fiber.Handler{"GET": h.summary}) // before /:id too
	route(api, "/export", map[string]fiber.Handler{"GET": h.export})   // before /:id
	route(f, pathNames, map[string]fiber.Handler{"GET": h.names})      // before /:id
	route(api, "/:id", map[string]fiber.Handler{"GET": h.get, "PATCH": h.patch})
	route(api, "/:id/history", map[string]fiber.Handler{"GET": h.history})
	for _, op := range models.Ops {
		route(api, "/:id/"+string(op), map[string]fiber.Handler{"POST": h.operate(op)})
	}
}

// route serves path with the given methods, and every other method with
// 405 and an Allow header, whatever the path's {id}: the methods an
// address serves do not depend on whether its event exists.
func route(r fiber.Router, path string, methods map[string]fiber.Handler) {
	var allow []string
	for _, m := range []string{"GET", "POST", "PATCH"} {
		handler, ok := methods[m]
		if !ok {
			continue
		}
		r.Add(m, path, handler)
		allow = append(allow, m)
		if m == "GET" {
			r.Add("HEAD", path, handler) // Add, unlike Get, does not serve HEAD too
			allow = append(allow, "HEAD")
		}
	}
	allowed := strings.Join(allow, ", ")
	r.All(path, func(c *fiber.Ctx) error {
		c.Set(fiber.HeaderAllow, allowed)
		return fiber.NewError(fiber.StatusMethodNotAllowed, c.Method()+" is not served here; use "+allowed)
	})
}

// openAPI: GET /api/openapi.json, the description of the JSON API
// (docs/openapi.json), open without authentication.
func openAPI(c *fiber.Ctx) error {
	c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
	return c.Send(docs.OpenAPI)
}

func (h *Handlers) healthz(c *fiber.Ctx) error {
	return c.JSON(fiber.Map{"status": "ok"})
}

func (h *Handlers) readyz(c *fiber.Ctx) error {
	ctx, cancel := context.WithTimeout(c.UserContext(), 2*time.Second)
	defer cancel()
	if err := h.svc.Ping(ctx); err != nil {
		return err
	}
	if h.opts.Backups == nil {
		return c.JSON(fiber.Map{"status": "ready"})
	}
	// The newest backup's age, and stale when it is older than twice the
	// interval: the database answers, but the backups fail.
	b := h.opts.Backups()
	backup := fiber.Map{"every_seconds": int64(b.Every / time.Second), "last": nil, "age_seconds": nil, "stale": false}
	if !b.Last.IsZero() {
		age := time.Since(b.Last)
		backup["last"] = b.Last.UTC().Format(time.RFC3339)
		backup["age_seconds"] = int64(age / time.Second)
		backup["stale"] = age > 2*b.Every
	}
	return c.JSON(fiber.Map{"status": "ready", "backup": backup})
}

// deadline gives every request the configured deadline; database
// statements inherit it, and PostgreSQL ends them when it passes (the
// driver cannot cancel a statement it has sent).
func (h *Handlers) deadline(c *fiber.Ctx) error {
	ctx, cancel := context.WithTimeout(context.Background(), h.opts.RequestTimeout)
	defer cancel()
	c.SetUserContext(app.WithStatementDeadline(ctx))
	return c.Next()
}

// securityHeaders are sent on every answer, errors included.
// Cache-Control: no-store keeps pages and API answers, which hold the
// owner's events, out of every cache (the browser's disk, a proxy's); the
// static files replace it with their own (assets.go).
func securityHeaders(c *fiber.Ctx) error {
	setSecurityHeaders(c)
	return c.Next()
}

// setSecurityHeaders sets the headers of securityHeaders; the error handler
// sets them too, for the errors the server raises before any middleware
// (a body over the limit).
func setSecurityHeaders(c *fiber.Ctx) {
	c.Set("Content-Security-Policy", "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
	c.Set(fiber.HeaderXContentTypeOptions, "nosniff")
	c.Set(fiber.HeaderXFrameOptions, "DENY")
	c.Set(fiber.HeaderReferrerPolicy, "same-origin")
	c.Set(fiber.HeaderCacheControl, "no-store")
}

// logRequests writes one line per request.
func (h *Handlers) logRequests(c *fiber.Ctx) error {
	start := time.Now()
	err := c.Next()
	if err != nil {
		if herr := c.App().ErrorHandler(c, err); herr != nil {
			_ = c.SendStatus(fiber.StatusInternalServerError)
		}
	}
	h.log.Info("request",
		"id", c.GetRespHeader(fiber.HeaderXRequestID),
		"method", c.Method(),
		"path", loggedPath(c),
		"status", c.Response().StatusCode(),
		"duration_ms", float64(time.Since(start).Microseconds())/1000,
		"client", clientIP(c))
	return nil
}

// clientIP is the address of the client. When the peer is a trusted proxy,
// it is the right-most X-Forwarded-For entry that is not itself a trusted
// proxy: each proxy appends the address it saw, so that entry is the one
// the last trusted proxy met, while entries to its left are whatever the
// client sent (a client can forge them). Otherwise it is the peer's address.
func clientIP(c *fiber.Ctx) string {
	client := c.Context().RemoteIP().String()
	if !c.IsProxyTrusted() {
		return client
	}
	var entries []string
	for _, h := range c.Request().Header.PeekAll(fiber.HeaderXForwardedFor) {
		entries = append(entries, strings.Split(string(h), ",")...)
	}
	trusted := c.App().Config().TrustedProxies
	for i := len(entries) - 1; i >= 0; i-- {
		ip := net.ParseIP(strings.TrimSpace(entries[i]))
		if ip == nil {
			break // a malformed entry: nothing to its left can be believed
		}
		client = ip.String()
		if !isTrustedProxy(ip, trusted) {
			break
		}
	}
	return client
}

// isTrustedProxy tells whether ip is one of the addresses or CIDR ranges of
// EVENTS_TRUSTED_PROXIES.
func isTrustedProxy(ip net.IP, trusted []string) bool {
	for _, t := range trusted {
		if _, cidr, err := net.ParseCIDR(t); err == nil {
			if cidr.Contains(ip) {
				return true
			}
		} else if ip.Equal(net.ParseIP(t)) {
			return true
		}
	}
	return false
}

// logPanic logs a handler's panic with its stack; the recover middleware
// then answers 500 and the server keeps serving.
func (h *Handlers) logPanic(c *fiber.Ctx, e any) {
	h.log.Error("panic", "id", c.GetRespHeader(fiber.HeaderXRequestID), "method", c.Method(), "path", loggedPath(c),
		"panic", fmt.Sprint(e), "stack", string(debug.Stack()))
}
