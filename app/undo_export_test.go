// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package app

// The undo stack's statement, for the plan tests of package app_test.
const UndoStackSQL = undoStackSQL
