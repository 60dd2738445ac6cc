//go:build ignore

// Command sqliteopen is design 3's floor (issue 17): the least a hook that
// writes the decision log through modernc.org/sqlite itself can do: link
// the driver, open the log with no pragma but synchronous=FULL and the busy
// timeout, read user_version (no schema check), insert one row in an
// IMMEDIATE transaction (one fsync of the WAL) and exit without closing (no
// checkpoint). No settings, no classifier. The log must exist (created by
// command-safety). Usage: sqliteopen LOG
package main

import (
	"database/sql"
	"fmt"
	"os"

	_ "modernc.org/sqlite"
)

func main() {
	db, err := sql.Open("sqlite", "file:"+os.Args[1]+"?_pragma=busy_timeout(100)&_pragma=synchronous(FULL)&_txlock=immediate")
	if err != nil {
		panic(err)
	}
	var v int
	if err := db.QueryRow("PRAGMA user_version").Scan(&v); err != nil || v == 0 {
		panic(fmt.Sprint(v, err))
	}
	tx, err := db.Begin()
	if err != nil {
		panic(err)
	}
	if _, err := tx.Exec(`INSERT INTO verdicts (time, request_id, command, cwd, workspaces, agent, mode, session, decision, effects, classes, decided_by, rule, reason, classification_enabled, micros, classifier_version, status, shell)
		VALUES ('2026-12-01T00:00:00.000000Z', '', 'ls', '/w', '[]', 'bench', '', 'b', 'allow', '[]', 'read', 'ls', 'read', 'r', 1, 1, '1', 'auto', 'bash')`); err != nil {
		panic(err)
	}
	if err := tx.Commit(); err != nil {
		panic(err)
	}
}
