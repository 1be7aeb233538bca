package app

// The undo stack's statement, for the plan tests of package app_test.
const UndoStackSQL = undoStackSQL
