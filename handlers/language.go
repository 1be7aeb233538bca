// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers

import (
	"fmt"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/bytebufferpool"

	"events/internal/i18n"
)

// The pages' language (docs/DESIGN.md, Languages): the sidebar's choice,
// kept in a cookie, else the one the browser's Accept-Language asks for
// (q-values honoured), else the deployment's (EVENTS_LANGUAGE), else
// English. The same request always gets the same language, so a fragment
// htmx swaps into a page is in that page's language. Every template is
// loaded once per language (templates.go), its {{t "id"}} bound to that
// language's catalogue; the rows drawn by Go take their row's language
// (rowView.L). The JSON API keeps English detail text unless the request
// itself asks for Korean with Accept-Language (apiLang).

// langCookie keeps the sidebar's choice of language, per browser.
const langCookie = "events_lang"

const localLang = "lang"

// lang is the language of c's page or fragment.
func (h *Handlers) lang(c *fiber.Ctx) *i18n.Lang {
	if l, ok := c.Locals(localLang).(*i18n.Lang); ok {
		return l
	}
	l := i18n.Parse(c.Cookies(langCookie))
	if l == nil {
		l = i18n.Accept(c.Get(fiber.HeaderAcceptLanguage), h.opts.Language)
	}
	c.Locals(localLang, l)
	c.Vary(fiber.HeaderAcceptLanguage, fiber.HeaderCookie)
	return l
}

// language chooses the request's language (lang) before anything answers
// it (a static file has none), so that the functions that draw rows find it (langOf).
func (h *Handlers) language(c *fiber.Ctx) error {
	// the static files are the same in every language: they vary by
	// encoding alone, so caches keep one copy of each
	if !strings.HasPrefix(c.Path(), "/static/") {
		h.lang(c)
	}
	return c.Next()
}

// langOf is the language the language middleware chose for c; English
// before it ran.
func langOf(c *fiber.Ctx) *i18n.Lang {
	if l, ok := c.Locals(localLang).(*i18n.Lang); ok {
		return l
	}
	return i18n.English
}

// apiLang is the language of a JSON answer's text: English, unless the
// request's Accept-Language asks for Korean before English. Scripts that
// send nothing keep the English detail they were written against.
func apiLang(c *fiber.Ctx) *i18n.Lang {
	return i18n.Accept(c.Get(fiber.HeaderAcceptLanguage), i18n.English)
}

// chooseLanguage: GET /language/{code}, the sidebar's link per language.
// It keeps the choice in a cookie for a year and goes back to the page it
// was chosen on (the Referer, when it is a page of this site).
func (h *Handlers) chooseLanguage(c *fiber.Ctx) error {
	l := i18n.Parse(c.Params("code"))
	if l == nil || c.Params("code") != l.Code {
		return fiber.NewError(fiber.StatusNotFound, fmt.Sprintf("%q is not a language of the pages; they come in en and ko", c.Params("code")))
	}
	c.Cookie(&fiber.Cookie{Name: langCookie, Value: l.Code, Path: "/", MaxAge: int((365 * 24 * time.Hour).Seconds()),
		SameSite: fiber.CookieSameSiteLaxMode, HTTPOnly: true, Secure: c.Protocol() == "https"})
	return c.Redirect(backTo(c), fiber.StatusSeeOther)
}

// backTo is the page of this site the request came from (its Referer's
// path and query), else /events.
func backTo(c *fiber.Ctx) string {
	ref := c.Get(fiber.HeaderReferer)
	if i := strings.Index(ref, "://"); i >= 0 {
		rest := ref[i+3:]
		host, path, _ := strings.Cut(rest, "/")
		if host == c.Hostname() && !strings.HasPrefix(path, "/") && !strings.HasPrefix(path, `\`) && !strings.HasPrefix(path, "language/") {
			return "/" + path
		}
	}
	return "/events"
}

// langLink is one of the sidebar's links per language.
type langLink struct {
	Code, Name string
	Current    bool
}

func langLinks(current *i18n.Lang) []langLink {
	var out []langLink
	for _, l := range i18n.Langs() {
		out = append(out, langLink{Code: l.Code, Name: l.Name, Current: l == current})
	}
	return out
}

// page answers the template name over bind as HTML in c's language: what
// c.Render does, with the language's templates.
func (h *Handlers) page(c *fiber.Ctx, name string, bind any) error {
	l := h.lang(c)
	// the view models that draw words of their own in Go take the language
	switch v := bind.(type) {
	case detailView:
		v.Row.L = l
		bind = v
	case detailPage:
		v.Detail.Row.L, v.History.L = l, l
		bind = v
	case historyView:
		v.L = l
		bind = v
	}
	buf := bytebufferpool.Get()
	defer bytebufferpool.Put(buf)
	if err := h.views[l].Render(buf, name, bind); err != nil {
		return fmt.Errorf("failed to render: %w", err)
	}
	c.Set(fiber.HeaderContentType, fiber.MIMETextHTMLCharsetUTF8)
	c.Response().SetBody(buf.B) // a copy: buf goes back to its pool
	return nil
}
