package audit

import (
	"context"
	"testing"
	"time"

	"github.com/ml-ai/command-safety/effects"
)

// asked appends a prompt the agent asked its user about.
func asked(t *testing.T, l *Log, agent, session, callID, cmd string) int64 {
	t.Helper()
	v := verdict(cmd, agent, part(effects.Network, cmd, "curl", effects.Prompt))
	v.ID, v.Time = callID, time.Now()
	id, err := l.Append(context.Background(), v, session, StatusAsked)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func TestRanMatchesExactly(t *testing.T) {
	l := openTemp(t)
	ctx := context.Background()
	byID := asked(t, l, "claude-code", "s1", "toolu_1", "curl a")
	sameText := asked(t, l, "claude-code", "s1", "toolu_2", "curl a")
	noID := asked(t, l, "gemini-cli", "g1", "", "curl b")
	other := asked(t, l, "gemini-cli", "g1", "", "curl c")
	hour := time.Now().Add(-time.Hour)

	// By call id: the row of that call, not the newer one with the same text.
	if id, err := l.Ran(ctx, Answer{Agent: "claude-code", Session: "s1", CallID: "toolu_1", Command: "curl a", Reviewer: "claude-code:ada"}); err != nil || id != byID {
		t.Errorf("by call id: %d, %v; want %d", id, err, byID)
	}
	// A call id with another command never matches.
	if id, err := l.Ran(ctx, Answer{Agent: "claude-code", Session: "s1", CallID: "toolu_2", Command: "curl evil", Reviewer: "x"}); err != nil || id != 0 {
		t.Errorf("call id with another command: %d, %v; want no match", id, err)
	}
	// Without a call id: session, exact command and time.
	if id, err := l.Ran(ctx, Answer{Agent: "gemini-cli", Session: "g1", Command: "curl b", Reviewer: "gemini-cli:ada", Since: hour}); err != nil || id != noID {
		t.Errorf("by text: %d, %v; want %d", id, err, noID)
	}
	for _, a := range []Answer{
		{Agent: "gemini-cli", Session: "g2", Command: "curl c", Since: hour},                      // another session
		{Agent: "cursor", Session: "g1", Command: "curl c", Since: hour},                          // another agent
		{Agent: "gemini-cli", Session: "g1", Command: "curl c ", Since: hour},                     // another text
		{Agent: "gemini-cli", Session: "g1", Command: "curl c", Since: time.Now().Add(time.Hour)}, // too old
	} {
		a.Reviewer = "x"
		if id, err := l.Ran(ctx, a); err != nil || id != 0 {
			t.Errorf("%+v matched row %d (%v)", a, id, err)
		}
	}
	e, _ := l.Get(ctx, byID)
	if e.Status != StatusApproved || e.Reviewer != "claude-code:ada" || e.Note == "" {
		t.Errorf("answered row: %s by %q, note %q", e.Status, e.Reviewer, e.Note)
	}

	// The turn ends: what is still asked in that session did not run.
	ids, err := l.NotRun(ctx, Answer{Agent: "claude-code", Session: "s1", Reviewer: "claude-code:ada"}, "the agent's turn ended (its Stop hook)")
	if err != nil || len(ids) != 1 || ids[0] != sameText {
		t.Errorf("NotRun: %v, %v; want [%d]", ids, err, sameText)
	}
	for id, want := range map[int64]Status{byID: StatusApproved, sameText: StatusRejected, noID: StatusApproved, other: StatusAsked} {
		if e, _ := l.Get(ctx, id); e.Status != want {
			t.Errorf("row %d: %s, want %s", id, e.Status, want)
		}
	}
}
