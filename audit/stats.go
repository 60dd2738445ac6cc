package audit

import (
	"context"
	"fmt"
)

// Stats are counts over the rows a [Filter] selects (its Limit is ignored).
type Stats struct {
	Total      int            `json:"total"`
	ByDecision map[string]int `json:"byDecision"` // allow, prompt, refuse
	ByEffect   map[string]int `json:"byEffect"`   // verdicts with at least one part of the effect
	ByAgent    map[string]int `json:"byAgent"`
	ByRule     map[string]int `json:"byRule"` // budget effect or SPEC §5 rule id
	ByStatus   map[string]int `json:"byStatus"`
	// ApprovalRate is approved / (approved + rejected) over resolved prompts;
	// 0 when none is resolved.
	ApprovalRate float64 `json:"approvalRate"`
}

// Stats counts the rows f selects by decision, effect, agent, rule and
// status, and the approval rate of resolved prompts.
func (l *Log) Stats(ctx context.Context, f Filter) (Stats, error) {
	from, args, _ := f.from()
	s := Stats{ByDecision: map[string]int{}, ByEffect: map[string]int{}, ByAgent: map[string]int{},
		ByRule: map[string]int{}, ByStatus: map[string]int{}}
	groups := []struct {
		q string
		m map[string]int
	}{
		{"SELECT v.decision, count(*)" + from + " GROUP BY v.decision", s.ByDecision},
		{"SELECT v.agent, count(*)" + from + " GROUP BY v.agent", s.ByAgent},
		{"SELECT v.rule, count(*)" + from + " GROUP BY v.rule", s.ByRule},
		{"SELECT v.status, count(*)" + from + " GROUP BY v.status", s.ByStatus},
		{"SELECT e.effect, count(*) FROM verdict_effects e WHERE e.verdict_id IN (SELECT v.id" +
			from + ") GROUP BY e.effect", s.ByEffect},
	}
	for _, g := range groups {
		if err := l.countInto(ctx, g.q, args, g.m); err != nil {
			return Stats{}, fmt.Errorf("decision log stats: %w", err)
		}
	}
	for _, n := range s.ByDecision {
		s.Total += n
	}
	if ok, no := s.ByStatus[string(StatusApproved)], s.ByStatus[string(StatusRejected)]; ok+no > 0 {
		s.ApprovalRate = float64(ok) / float64(ok+no)
	}
	return s, nil
}

func (l *Log) countInto(ctx context.Context, q string, args []any, m map[string]int) error {
	return retry(ctx, func() error {
		clear(m)
		rows, err := l.db.QueryContext(ctx, q, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var k string
			var n int
			if err := rows.Scan(&k, &n); err != nil {
				return err
			}
			m[k] = n
		}
		return rows.Err()
	})
}
