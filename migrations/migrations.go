// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

// Package migrations embeds the SQL migrations, applied in name order by
// bun's migrator (see app.Migrate).
package migrations

import "embed"

// FS holds the *.up.sql and *.down.sql files of this folder.
//
//go:embed *.sql
var FS embed.FS
