// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package app

import (
	"errors"
	"fmt"
	"net"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"events/internal/i18n"
	"events/models"
)

// Config is the service's configuration, read from the environment.
type Config struct {
	Host        string         // HOST
	Port        int            // PORT
	DatabaseURL string         // DATABASE_URL; empty: the embedded default database
	DataDir     string         // EVENTS_DATA_DIR, where the embedded database lives
	Location    *time.Location // EVENTS_TIMEZONE
	NotesURL    string         // EVENTS_NOTES_URL, the sidebar's Notes entry
	// Language (EVENTS_LANGUAGE, en or ko; default en) is the pages'
	// language for a browser that asks for none of the catalogue's.
	Language       *i18n.Lang
	TrustedProxies []string      // EVENTS_TRUSTED_PROXIES
	RequestTimeout time.Duration // EVENTS_REQUEST_TIMEOUT
	// Auth is EVENTS_PASSWORD_HASH, EVENTS_API_TOKENS, EVENTS_SESSION_KEY
	// and EVENTS_AUTH.
	Auth *Auth
	// ShutdownTimeout (EVENTS_SHUTDOWN_TIMEOUT) bounds the drain after
	// SIGTERM: the requests still running then are cut off.
	ShutdownTimeout time.Duration
	// MaxInFlight (EVENTS_MAX_IN_FLIGHT) is how many requests may do work
	// at once; 0: two per connection of the database pool (PoolSize).
	// QueueWait (EVENTS_QUEUE_WAIT) is how long a request waits for one of
	// them before it is refused with 503.
	MaxInFlight int
	QueueWait   time.Duration
	// MaxExports (EVENTS_MAX_EXPORTS) is how many exports may run at once
	// (default 2): each holds a work slot for as long as its client reads.
	MaxExports int
	// ExportTimeout (EVENTS_EXPORT_TIMEOUT) is the deadline of an export's
	// whole run: a file not whole by then is aborted.
	ExportTimeout time.Duration
	// BackupDir (EVENTS_BACKUP_DIR, default backups/ in EVENTS_DATA_DIR)
	// is where the service writes its own backups, every BackupEvery
	// (EVENTS_BACKUP_EVERY, default 24h; 0 when "off"), keeping the
	// newest BackupKeep (EVENTS_BACKUP_KEEP, default 14).
	BackupDir   string
	BackupEvery time.Duration
	BackupKeep  int
}

// DefaultZone is the zone of the day-based listings and of all-day dates
// when EVENTS_TIMEZONE is unset.
const DefaultZone = "Asia/Seoul"

// ConfigFromEnv reads the configuration; getenv is os.Getenv in production.
// Every bad value is reported, one sentence each.
func ConfigFromEnv(getenv func(string) string) (Config, error) {
	get := func(key, def string) string {
		if v := strings.TrimSpace(getenv(key)); v != "" {
			return v
		}
		return def
	}
	var errs []error
	c := Config{
		Host:        get("HOST", "127.0.0.1"),
		DatabaseURL: get("DATABASE_URL", ""),
		DataDir:     get("EVENTS_DATA_DIR", "./.data"),
		NotesURL:    get("EVENTS_NOTES_URL", "/notes"),
	}
	lang := get("EVENTS_LANGUAGE", "en")
	if c.Language = i18n.Parse(lang); c.Language == nil {
		errs = append(errs, fmt.Errorf("EVENTS_LANGUAGE must be en or ko, not %q", lang))
	}
	port, err := strconv.Atoi(get("PORT", "3000"))
	if err != nil || port < 1 || port > 65535 {
		errs = append(errs, fmt.Errorf("PORT must be a port number from 1 to 65535, not %q", getenv("PORT")))
	}
	c.Port = port
	zone := get("EVENTS_TIMEZONE", DefaultZone)
	if c.Location, err = models.LoadZone(zone); err != nil {
		errs = append(errs, fmt.Errorf("EVENTS_TIMEZONE: %w", err))
	}
	for _, p := range strings.Split(get("EVENTS_TRUSTED_PROXIES", "127.0.0.1,::1"), ",") {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		if net.ParseIP(p) == nil {
			if _, _, err := net.ParseCIDR(p); err != nil {
				errs = append(errs, fmt.Errorf("EVENTS_TRUSTED_PROXIES must list IP addresses or CIDR ranges, and %q is neither", p))
				continue
			}
		}
		c.TrustedProxies = append(c.TrustedProxies, p)
	}
	errs = append(errs, c.readLimits(get)...)
	errs = append(errs, c.readStorage(get)...)
	if c.DatabaseURL != "" && !strings.HasPrefix(c.DatabaseURL, "postgres://") && !strings.HasPrefix(c.DatabaseURL, "postgresql://") {
		errs = append(errs, errors.New("DATABASE_URL must be a postgres:// URL"))
	}
	if c.Auth, err = AuthFromEnv(getenv); err != nil {
		errs = append(errs, err)
	}
	if net.ParseIP(strings.Trim(c.Host, "[]")) == nil && c.Host != "localhost" {
		errs = append(errs, fmt.Errorf("HOST must be an IP address to listen on, such as 127.0.0.1 or 0.0.0.0, not %q", c.Host))
	}
	return c, errors.Join(errs...)
}

// readLimits reads the service's time limits and how many requests and
// exports it takes at once, by get (ConfigFromEnv's): every bad value's
// sentence.
func (c *Config) readLimits(get func(key, def string) string) []error {
	var errs []error
	var err error
	timeout := get("EVENTS_REQUEST_TIMEOUT", "10s")
	if c.RequestTimeout, err = time.ParseDuration(timeout); err != nil || c.RequestTimeout < 100*time.Millisecond || c.RequestTimeout > 10*time.Minute {
		errs = append(errs, fmt.Errorf("EVENTS_REQUEST_TIMEOUT must be a duration from 100ms to 10m, such as 10s, not %q", timeout))
	}
	shutdown := get("EVENTS_SHUTDOWN_TIMEOUT", "15s")
	if c.ShutdownTimeout, err = time.ParseDuration(shutdown); err != nil || c.ShutdownTimeout < 100*time.Millisecond || c.ShutdownTimeout > 10*time.Minute {
		errs = append(errs, fmt.Errorf("EVENTS_SHUTDOWN_TIMEOUT must be a duration from 100ms to 10m, such as 15s, not %q", shutdown))
	}
	if v := get("EVENTS_MAX_IN_FLIGHT", ""); v != "" {
		if c.MaxInFlight, err = strconv.Atoi(v); err != nil || c.MaxInFlight < 1 || c.MaxInFlight > 10000 {
			errs = append(errs, fmt.Errorf("EVENTS_MAX_IN_FLIGHT must be a number of requests from 1 to 10000, not %q", v))
		}
	}
	wait := get("EVENTS_QUEUE_WAIT", "500ms")
	if c.QueueWait, err = time.ParseDuration(wait); err != nil || c.QueueWait < time.Millisecond || c.QueueWait > 10*time.Second {
		errs = append(errs, fmt.Errorf("EVENTS_QUEUE_WAIT must be a duration from 1ms to 10s, such as 500ms, not %q", wait))
	}
	exports := get("EVENTS_MAX_EXPORTS", "2")
	if c.MaxExports, err = strconv.Atoi(exports); err != nil || c.MaxExports < 1 || c.MaxExports > 64 {
		errs = append(errs, fmt.Errorf("EVENTS_MAX_EXPORTS must be a number of exports from 1 to 64, not %q", exports))
	}
	export := get("EVENTS_EXPORT_TIMEOUT", "5m")
	if c.ExportTimeout, err = time.ParseDuration(export); err != nil || c.ExportTimeout < time.Second || c.ExportTimeout > 24*time.Hour {
		errs = append(errs, fmt.Errorf("EVENTS_EXPORT_TIMEOUT must be a duration from 1s to 24h, such as 5m, not %q", export))
	}
	return errs
}

// readStorage reads where the data and the backups are and how often a
// backup is made and how many are kept, by get (ConfigFromEnv's): every
// bad value's sentence.
func (c *Config) readStorage(get func(key, def string) string) []error {
	var errs []error
	var err error
	if c.DataDir, err = filepath.Abs(c.DataDir); err != nil {
		errs = append(errs, fmt.Errorf("EVENTS_DATA_DIR: %w", err))
	}
	if c.BackupDir, err = filepath.Abs(get("EVENTS_BACKUP_DIR", filepath.Join(c.DataDir, "backups"))); err != nil {
		errs = append(errs, fmt.Errorf("EVENTS_BACKUP_DIR: %w", err))
	}
	if every := get("EVENTS_BACKUP_EVERY", "24h"); every != "off" {
		if c.BackupEvery, err = time.ParseDuration(every); err != nil || c.BackupEvery < time.Second || c.BackupEvery > 31*24*time.Hour {
			errs = append(errs, fmt.Errorf("EVENTS_BACKUP_EVERY must be a duration from 1s to 744h, such as 24h, or off, not %q", every))
		}
	}
	keep := get("EVENTS_BACKUP_KEEP", "14")
	if c.BackupKeep, err = strconv.Atoi(keep); err != nil || c.BackupKeep < 1 || c.BackupKeep > 10000 {
		errs = append(errs, fmt.Errorf("EVENTS_BACKUP_KEEP must be a number of backups from 1 to 10000, not %q", keep))
	}
	return errs
}

// CheckExposure refuses to serve a non-loopback address without
// authentication, unless it was turned off on purpose (EVENTS_AUTH=off, for
// an edge that authenticates).
func (c Config) CheckExposure() error {
	if c.Auth.Enabled() || c.Auth.Off() || c.Loopback() {
		return nil
	}
	return fmt.Errorf("refusing to listen on %s without authentication: set EVENTS_PASSWORD_HASH and EVENTS_SESSION_KEY, or EVENTS_API_TOKENS, or EVENTS_AUTH=off when the proxy in front authenticates", c.Host)
}

// Loopback reports whether the listen address is reachable from this machine only.
func (c Config) Loopback() bool {
	if c.Host == "localhost" {
		return true
	}
	ip := net.ParseIP(strings.Trim(c.Host, "[]"))
	return ip != nil && ip.IsLoopback()
}

// Addr is the address to listen on.
func (c Config) Addr() string {
	return net.JoinHostPort(strings.Trim(c.Host, "[]"), strconv.Itoa(c.Port))
}
