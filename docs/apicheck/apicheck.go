// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

// Package apicheck checks requests to the JSON API and their answers
// against docs/openapi.json. The API tests send every request through a
// helper that calls Problems, so a change of behaviour without a change of
// the document fails the test that made the request. Only tests import it.
package apicheck

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"

	"events/docs"
	"events/models"
)

var doc struct {
	once   sync.Once
	doc    *openapi3.T
	router routers.Router
	err    error
}

// formContent is the extension of a request body that describes its form
// bodies beside content, which holds the JSON ones alone (so that a client
// generated from the document types the JSON body, not a union with the
// form's; see the document's introduction).
const formContent = "x-form-content"

// formsInContent puts each request body's form bodies (formContent) into
// its content, where kin-openapi's request validation looks for them: the
// service takes both, and the tests check both.
func formsInContent(d *openapi3.T) error {
	for path, item := range d.Paths.Map() {
		for method, op := range item.Operations() {
			if op.RequestBody == nil || op.RequestBody.Value == nil {
				continue
			}
			rb := op.RequestBody.Value
			x, ok := rb.Extensions[formContent].(map[string]any)
			if !ok {
				continue
			}
			for ctype, m := range x {
				ref, _ := m.(map[string]any)["schema"].(map[string]any)["$ref"].(string)
				s, err := schemaRef(d, ref)
				if err != nil {
					return fmt.Errorf("%s %s: %s %s: %w", method, path, formContent, ctype, err)
				}
				rb.Content[ctype] = &openapi3.MediaType{Schema: s}
			}
		}
	}
	return nil
}

// schemaRef resolves a reference to one of the document's schemas.
func schemaRef(d *openapi3.T, ref string) (*openapi3.SchemaRef, error) {
	const prefix = "#/components/schemas/"
	name, ok := strings.CutPrefix(ref, prefix)
	if s := d.Components.Schemas[name]; ok && s != nil && s.Value != nil {
		return &openapi3.SchemaRef{Ref: ref, Value: s.Value}, nil
	}
	return nil, fmt.Errorf("the schema %q is not one of %s", ref, prefix)
}

// Load loads and validates the document once; its error says what is
// wrong with it.
func Load() (routers.Router, error) {
	doc.once.Do(func() {
		// date-time is what the service reads: RFC 3339, whose "t" and
		// "z" may be lowercase (RFC 3339, 5.6), which kin-openapi's own
		// pattern refuses.
		openapi3.DefineStringFormatValidator("date-time", openapi3.NewCallbackValidator(dateTime))
		loader := openapi3.NewLoader()
		d, err := loader.LoadFromData(docs.OpenAPI)
		if err != nil {
			doc.err = err
			return
		}
		if doc.err = d.Validate(loader.Context); doc.err != nil {
			return
		}
		if doc.err = formsInContent(d); doc.err != nil {
			return
		}
		doc.doc = d
		// The document's server is relative ("/": wherever it was read
		// from); the tests' requests go to hosts of their own, so routes
		// are matched by path alone.
		d.Servers = nil
		doc.router, doc.err = legacy.NewRouter(d)
	})
	return doc.router, doc.err
}

// dateTime checks a date-time as the service reads one (models.ParseTime
// without a zone: an offset is required).
func dateTime(s string) error {
	if _, _, problem := models.ParseTime(s, nil); problem != "" {
		return errors.New(problem)
	}
	return nil
}

// Documented reports whether the document covers the path: the JSON API
// and the health checks, not the pages.
func Documented(path string) bool {
	return strings.HasPrefix(path, "/api/") || path == "/healthz" || path == "/readyz"
}

// Problems are what the document says is wrong with a request (its body
// apart, as the request's own may be read already) and its answer. A
// request the document calls wrong must have been refused (4xx); every
// answer, its status, headers and body, must be one the document
// describes. Requests of htmx (answered with HTML fragments), HEAD and
// the pages are not the JSON API's.
func Problems(req *http.Request, body []byte, status int, header http.Header, answer []byte) []string {
	if !Documented(req.URL.Path) || req.Header.Get("HX-Request") == "true" || req.Method == http.MethodHead {
		return nil
	}
	if status == http.StatusMethodNotAllowed {
		// any method an address does not serve, as the document's introduction says
		if header.Get("Allow") == "" {
			return []string{"405 without an Allow header"}
		}
		return nil
	}
	router, err := Load()
	if err != nil {
		return []string{"docs/openapi.json: " + err.Error()}
	}
	r := req.Clone(context.Background())
	r.Body = io.NopCloser(bytes.NewReader(body))
	if r.URL.Host == "" {
		r.URL.Scheme, r.URL.Host = "http", r.Host
	}
	route, params, err := router.FindRoute(r)
	if err == nil && route.PathItem.GetOperation(req.Method) == nil {
		err = routers.ErrMethodNotAllowed
	}
	if err != nil {
		if status == http.StatusNotFound {
			return nil // nothing at that address, as the document says
		}
		return []string{"the document has no " + req.Method + " " + req.URL.Path + ": " + err.Error()}
	}
	var problems []string
	opts := &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc, IncludeResponseStatus: true, MultiError: true}
	in := &openapi3filter.RequestValidationInput{Request: r, PathParams: params, Route: route, Options: opts}
	if err := validateRequest(in, body); err != nil && status < 400 {
		problems = append(problems, "the document refuses the request, but it was answered "+http.StatusText(status)+": "+err.Error())
	}
	out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: status, Header: header, Options: opts}
	out.SetBodyBytes(answer)
	if err := openapi3filter.ValidateResponse(context.Background(), out); err != nil {
		problems = append(problems, "the answer is not one the document describes: "+err.Error())
	}
	return append(problems, lineProblems(route.Operation, status, header, answer)...)
}

// RequestProblem is what the document says is wrong with a request, body
// included: nil when its request validation accepts it. It tells the
// request apart from its answer, for the tests that compare the
// document's verdict with the server's.
func RequestProblem(req *http.Request, body []byte) error {
	router, err := Load()
	if err != nil {
		return err
	}
	r := req.Clone(context.Background())
	r.Body = io.NopCloser(bytes.NewReader(body))
	if r.URL.Host == "" {
		r.URL.Scheme, r.URL.Host = "http", r.Host
	}
	route, params, err := router.FindRoute(r)
	if err != nil {
		return err
	}
	if route.PathItem.GetOperation(req.Method) == nil {
		return routers.ErrMethodNotAllowed
	}
	opts := &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc, MultiError: true}
	return validateRequest(&openapi3filter.RequestValidationInput{Request: r, PathParams: params, Route: route, Options: opts}, body)
}

// validateRequest is kin-openapi's request validation and one check it
// leaves out: its decoder of a form body reads only the properties the
// schema names, so a closed form schema (additionalProperties: false)
// would pass any other field unseen.
func validateRequest(in *openapi3filter.RequestValidationInput, body []byte) error {
	if err := openapi3filter.ValidateRequest(context.Background(), in); err != nil {
		return err
	}
	ctype, _, _ := mime.ParseMediaType(in.Request.Header.Get("Content-Type"))
	rb := in.Route.Operation.RequestBody
	if ctype != "application/x-www-form-urlencoded" || rb == nil || rb.Value == nil {
		return nil
	}
	mt := rb.Value.Content.Get(ctype)
	if mt == nil || mt.Schema == nil || mt.Schema.Value == nil {
		return nil
	}
	s := mt.Schema.Value
	if s.AdditionalProperties.Has == nil || *s.AdditionalProperties.Has {
		return nil
	}
	form, err := url.ParseQuery(string(body))
	if err != nil {
		return fmt.Errorf("request body: not a form: %w", err)
	}
	for name := range form {
		if _, ok := s.Properties[name]; !ok {
			return fmt.Errorf("request body: the form has %q, which its schema does not allow", name)
		}
	}
	return nil
}
