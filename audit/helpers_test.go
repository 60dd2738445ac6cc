package audit

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
)

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func fmtAny(v any) string { return fmt.Sprint(v) }

// insertOld writes r as binaries of schema versions 1 to 4 did: without the
// classes column of version 5.
func insertOld(ctx context.Context, ex execer, r row) (int64, error) {
	const q = `INSERT INTO verdicts (time, request_id, command, cwd, workspaces,
		agent, mode, session, decision, effects, decided_by, rule, reason, classification_enabled,
		micros, classifier_version, status) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
	a := rowArgs(r)
	a = append(a[:10:10], a[11:]...) // without classes
	return insertWith(r,
		func(...any) (sql.Result, error) { return ex.ExecContext(ctx, q, a...) },
		func(args ...any) (sql.Result, error) { return ex.ExecContext(ctx, insertEffectSQL, args...) })
}
