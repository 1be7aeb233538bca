// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers

import (
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"

	"events/internal/i18n"
	"events/models"
)

// The problem types, declared once: the "type" of every problem answer is
// one of these URIs, relative to the service (/problems/validation), and
// each is served at that address as a short page that explains it
// (problemPage). problemFor picks the type with the status; the OpenAPI
// document lists the URIs (an enum on Problem.type) and docs/api.md
// explains them, and a test compares both with this table. A type is part
// of the API: add one for a new kind of refusal, never rename one.

// problemType is one kind of refusal.
type problemType struct {
	Slug     string // the last segment of its URI
	Name     string // the heading of its page
	Statuses []int  // the statuses it is sent with
	About    string // what it means and what to do, in a sentence or two
	Codes    bool   // its answers name fields with codes (models.Codes), listed on its page
}

// URI is the type's address, relative to the service.
func (t *problemType) URI() string { return problemsPath + t.Slug }

const problemsPath = "/problems/"

var problemTypes []*problemType

func declareProblem(t problemType) *problemType {
	problemTypes = append(problemTypes, &t)
	return &t
}

// The types.
var (
	typeValidation = declareProblem(problemType{Slug: "validation", Name: "Validation failed", Statuses: []int{422}, Codes: true,
		About: "The request was read, but a field of it breaks a rule of the API: each entry of errors names a field, a code and the reason. Nothing was written; correct the fields and send it again."})
	typeMalformed = declareProblem(problemType{Slug: "malformed", Name: "Malformed request", Statuses: []int{400, 501}, Codes: true,
		About: "The request could not be read: a body that is not JSON or not a form, a query parameter or header (If-Match, Idempotency-Key) that does not parse or is not one of this address, or HTTP that is not well-formed (501 from the edge: a transfer coding other than chunked). A parameter or header at fault is named in errors with a code. Nothing was done."})
	typeUnauthenticated = declareProblem(problemType{Slug: "unauthenticated", Name: "Authentication needed", Statuses: []int{401},
		About: "The request carries no valid credentials: send an API token (Authorization: Bearer …) or log in, and try again."})
	typeForbidden = declareProblem(problemType{Slug: "forbidden", Name: "Forbidden", Statuses: []int{403},
		About: "A change sent from a browser session lacks the page's CSRF token, or carries a wrong one: reload the page and try again. From the edge (nginx): a path to a hidden file or folder, which is never served."})
	typeNotFound = declareProblem(problemType{Slug: "not-found", Name: "Not found", Statuses: []int{404},
		About: "There is no event with this id (or the id is not a number), or nothing at this address."})
	typeMethodNotAllowed = declareProblem(problemType{Slug: "method-not-allowed", Name: "Method not allowed", Statuses: []int{405},
		About: "The address does not serve this method; its Allow header lists the ones it does."})
	typeIllegalTransition = declareProblem(problemType{Slug: "illegal-transition", Name: "Not allowed from this status", Statuses: []int{409},
		About: "The lifecycle operation is not allowed from the event's current status (or there is no step to undo). Read the event again to see its status; nothing was changed."})
	typeDuplicateSource = declareProblem(problemType{Slug: "duplicate-source", Name: "Already stored", Statuses: []int{409},
		About: "An event with the same source and source_ref is already stored: existing_id and the Location header name it. Nothing was written."})
	typeOverlap = declareProblem(problemType{Slug: "overlap", Name: "Overlapping logs", Statuses: []int{409},
		About: "The activity log would overlap logs already stored, and the create asked to be refused then (overlap: refuse): overlaps lists each with its id, title and the seconds they share. Nothing was written."})
	typeIdempotencyInFlight = declareProblem(problemType{Slug: "idempotency-in-flight", Name: "Same key in progress", Statuses: []int{409},
		About: "A request with this Idempotency-Key is still being processed. Retry the same request once it has finished: it then answers what the first one did."})
	typeIdempotencyMismatch = declareProblem(problemType{Slug: "idempotency-mismatch", Name: "Key used for another request", Statuses: []int{422}, Codes: true,
		About: "The Idempotency-Key was sent in the last 24 hours with another request (another body or address). Nothing was written; use a new key for a new request."})
	typeStalePrecondition = declareProblem(problemType{Slug: "stale-precondition", Name: "Changed since read", Statuses: []int{412},
		About: "The event changed since the ETag sent in If-Match was read; the answer's ETag header is the current one. Nothing was written: read the event again, then retry with the new ETag."})
	typeTooLarge = declareProblem(problemType{Slug: "too-large", Name: "Too large", Statuses: []int{413, 431},
		About: "The body (413) or the request's head, its headers and cookies (431), is larger than the service takes; the detail says the limit. Nothing was done."})
	typeRequestTimeout = declareProblem(problemType{Slug: "request-timeout", Name: "Request too slow", Statuses: []int{408},
		About: "The request's head and body did not arrive within the read timeout (30 s), so it was cut off unread. Nothing was done; send it again."})
	typeUnsupportedMediaType = declareProblem(problemType{Slug: "unsupported-media-type", Name: "Unsupported media type", Statuses: []int{415},
		About: "The body is neither JSON (application/json) nor a form (application/x-www-form-urlencoded). Nothing was done."})
	typeRateLimited = declareProblem(problemType{Slug: "rate-limited", Name: "Too many attempts", Statuses: []int{429},
		About: "Too many login attempts came from this address, or (from the edge, nginx) too many requests at once; wait a moment (a minute for logins) and try again."})
	typeOverloaded = declareProblem(problemType{Slug: "overloaded", Name: "Busy", Statuses: []int{503},
		About: "The service is busy (with other requests, with logins waiting their turn, or with as many exports as it runs at once), so this request was refused before anything was done. Retry after the seconds of its Retry-After header."})
	typeUnavailable = declareProblem(problemType{Slug: "unavailable", Name: "Unavailable", Statuses: []int{503, 502, 504},
		About: "The database is not answering, its disk is full, or the request ran out of time (502 and 504 from the edge: the service itself is not answering); nothing acknowledged is lost. Retry after the seconds of its Retry-After header, or shortly."})
	typeInternal = declareProblem(problemType{Slug: "internal", Name: "Internal error", Statuses: []int{500},
		About: "Something went wrong on the server's side; it has been logged with the request id (the X-Request-ID header)."})
)

// typeOfStatus is the type of an error that is only a status: one Fiber or
// fasthttp raised, or a handler with fiber.NewError.
func typeOfStatus(status int) *problemType {
	switch status {
	case fiber.StatusUnauthorized:
		return typeUnauthenticated
	case fiber.StatusForbidden:
		return typeForbidden
	case fiber.StatusNotFound:
		return typeNotFound
	case fiber.StatusMethodNotAllowed:
		return typeMethodNotAllowed
	case fiber.StatusRequestTimeout:
		return typeRequestTimeout
	case fiber.StatusRequestEntityTooLarge, fiber.StatusRequestHeaderFieldsTooLarge:
		return typeTooLarge
	case fiber.StatusUnsupportedMediaType:
		return typeUnsupportedMediaType
	case fiber.StatusTooManyRequests:
		return typeRateLimited
	case fiber.StatusServiceUnavailable:
		return typeUnavailable
	}
	if status >= 500 {
		return typeInternal
	}
	return typeMalformed
}

// problemTypeBySlug finds a declared type.
func problemTypeBySlug(slug string) *problemType {
	for _, t := range problemTypes {
		if t.Slug == slug {
			return t
		}
	}
	return nil
}

// problemTypePage is the data of pages/problem_type, in the page's
// language: Name and About are the type's (English, as the API document
// has them) or the catalogue's problem_ and its slug.
type problemTypePage struct {
	Type        *problemType
	Name, About string
	Statuses    string
	Codes       []models.CodeInfo
}

// problemID is the start of the catalogue's ids of t: problem_ and its
// slug ("problem_not_found").
func problemID(t *problemType) string { return "problem_" + strings.ReplaceAll(t.Slug, "-", "_") }

// problemTypeIn is t's page in l.
func problemTypeIn(l *i18n.Lang, t *problemType) problemTypePage {
	p := problemTypePage{Type: t, Name: t.Name, About: t.About}
	id := problemID(t)
	if l != i18n.English {
		p.Name, p.About = l.T(id+"_name"), l.T(id+"_about")
	}
	if t.Codes {
		p.Codes = models.Codes()
		if l != i18n.English {
			p.Codes = make([]models.CodeInfo, len(models.Codes()))
			for i, c := range models.Codes() {
				p.Codes[i] = models.CodeInfo{Code: c.Code, Means: l.T("error_" + c.Code.String())}
			}
		}
	}
	return p
}

// problemPage: GET /problems/{type}, the page that explains a problem
// type, open without authentication like the document it is named in.
func (h *Handlers) problemPage(c *fiber.Ctx) error {
	t := problemTypeBySlug(c.Params("type"))
	if t == nil {
		return fiber.ErrNotFound
	}
	statuses := make([]string, len(t.Statuses))
	for i, s := range t.Statuses {
		statuses[i] = strconv.Itoa(s) + " " + statusTitle(s)
	}
	data := problemTypeIn(h.lang(c), t)
	data.Statuses = strings.Join(statuses, ", ")
	return h.page(c, "pages/problem_type", data)
}
