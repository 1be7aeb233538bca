// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package models

import (
	"encoding/base64"
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
)

// ChangeToken is a place in the order of changes (DESIGN.md, Sync): every
// change at or before it has been listed, and every transaction older
// than XID had ended when it was read. A change's position is its
// transaction's id, a number from one sequence and the event's id.
type ChangeToken struct {
	XID uint64 // the writing transaction (xid8)
	Seq int64  // the change's number
	ID  int64  // the event
}

// String is the token as the API hands it out: opaque, and checked when it
// comes back.
func (t ChangeToken) String() string {
	body := fmt.Sprintf("%d.%d.%d", t.XID, t.Seq, t.ID)
	return base64.RawURLEncoding.EncodeToString([]byte(body + "." + changeCheck(body)))
}

// ParseChangeToken reads a token of String; "" is the start, before every
// change.
func ParseChangeToken(s string) (ChangeToken, error) {
	bad := BadRequest("changes_after", CodeBadFormat, "is not a change token handed out by this service: start again with changes_after= (empty) for every event")
	if s == "" {
		return ChangeToken{}, nil
	}
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return ChangeToken{}, bad
	}
	parts := strings.Split(string(raw), ".")
	if len(parts) != 4 || parts[3] != changeCheck(strings.Join(parts[:3], ".")) {
		return ChangeToken{}, bad
	}
	var t ChangeToken
	if t.XID, err = strconv.ParseUint(parts[0], 10, 63); err != nil {
		return ChangeToken{}, bad
	}
	if t.Seq, err = strconv.ParseInt(parts[1], 10, 64); err != nil {
		return ChangeToken{}, bad
	}
	if t.ID, err = strconv.ParseInt(parts[2], 10, 64); err != nil {
		return ChangeToken{}, bad
	}
	return t, nil
}

// changeCheck catches edits of a token (it is no secret: a forged token
// can only make its own client skip or repeat changes).
func changeCheck(body string) string {
	h := fnv.New64a()
	h.Write([]byte("changes#" + body))
	return strconv.FormatUint(h.Sum64(), 36)
}
