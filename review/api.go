package review

import (
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"path"
	"strconv"
	"time"

	"github.com/ml-ai/command-safety/audit"
	"github.com/ml-ai/command-safety/effects"
)

//go:embed static
var static embed.FS

// staticFile serves one embedded file.
func staticFile(name string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		data, err := static.ReadFile("static/" + name)
		if err != nil {
			writeError(w, http.StatusNotFound, "no such file")
			return
		}
		ct := mime.TypeByExtension(path.Ext(name))
		if ct == "" {
			ct = "application/octet-stream"
		}
		w.Header().Set("Content-Type", ct)
		w.Write(data)
	}
}

// maxPending bounds the pending rows one response lists; the count is exact.
const maxPending = 500

// maxDecisions bounds the limit of /api/decisions.
const maxDecisions = 1000

// Entry is a decision log row as the page gets it.
type Entry struct {
	audit.Entry
	// Held is true when a process (a hook in hold mode) waits on this
	// pending row, until HoldUntil.
	Held      bool      `json:"held,omitempty"`
	HoldUntil time.Time `json:"holdUntil,omitzero"`
}

func (s *Server) entries(es []audit.Entry) []Entry {
	now := s.cfg.Now()
	out := make([]Entry, 0, len(es))
	for _, e := range es {
		x := Entry{Entry: e}
		if until, ok := audit.HeldUntil(e.Note); ok && e.Status == audit.StatusHeld && until.After(now) {
			x.Held, x.HoldUntil = true, until
		}
		out = append(out, x)
	}
	return out
}

func (s *Server) apiSession(w http.ResponseWriter, r *http.Request, sess *session) {
	writeJSON(w, http.StatusOK, map[string]string{"csrf": sess.csrf, "reviewer": s.cfg.Reviewer})
}

func (s *Server) apiPending(w http.ResponseWriter, r *http.Request, _ *session) {
	ctx := r.Context()
	// Only held rows: a hook waits on them. Prompts the agent asked its own
	// user, or that nobody will answer (advisory), are in the decisions tab.
	es, err := s.cfg.Log.Query(ctx, audit.Filter{Status: audit.StatusHeld, Limit: maxPending})
	if err != nil {
		writeError(w, http.StatusInternalServerError, err.Error())
		return
	}
	count := len(es)
	if count == maxPending {
		st, err := s.cfg.Log.Stats(ctx, audit.Filter{Status: audit.StatusHeld})
		if err != nil {
			writeError(w, http.StatusInternalServerError, err.Error())
			return
		}
		count = st.Total
	}
	writeJSON(w, http.StatusOK, struct {
		Now     time.Time `json:"now"`
		Count   int       `json:"count"`
		Entries []Entry   `json:"entries"`
	}{s.cfg.Now().UTC(), count, s.entries(es)})
}

func (s *Server) apiDecisions(w http.ResponseWriter, r *http.Request, _ *session) {
	q := r.URL.Query()
	f := audit.Filter{Agent: q.Get("agent"), Limit: 100}
	if d := q.Get("decision"); d != "" {
		dec, err := effects.ParseDecision(d)
		if err != nil {
			writeError(w, http.StatusBadRequest, err.Error())
			return
		}
		f.Decision = &dec
	}
	if st := q.Get("status"); st != "" {
		status, err := audit.ParseStatus(st)
		if err != nil {
			writeError(w, http.StatusBadRequest, err.Error())
			return
		}
		f.Status = status
	}
	if l := q.Get("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 1 || n > maxDecisions {
			writeError(w, http.StatusBadRequest, fmt.Sprintf("limit %q: want 1 to %d", l, maxDecisions))
			return
		}
		f.Limit = n
	}
	es, err := s.cfg.Log.Query(r.Context(), f)
	if err != nil {
		writeError(w, http.StatusInternalServerError, err.Error())
		return
	}
	writeJSON(w, http.StatusOK, struct {
		Now     time.Time `json:"now"`
		Entries []Entry   `json:"entries"`
	}{s.cfg.Now().UTC(), s.entries(es)})
}

// resolveRequest is the body of POST /api/resolve.
type resolveRequest struct {
	ID       int64  `json:"id"`
	Outcome  string `json:"outcome"`  // approve or reject
	Reviewer string `json:"reviewer"` // "" is the server's default
}

// conflict is the body of a 409: the row's state.
type conflict struct {
	Error      string       `json:"error"`
	ID         int64        `json:"id"`
	Status     audit.Status `json:"status"`
	Reviewer   string       `json:"reviewer,omitempty"`
	ReviewedAt time.Time    `json:"reviewedAt,omitzero"`
}

func (s *Server) apiResolve(w http.ResponseWriter, r *http.Request, _ *session) {
	// A JSON body also keeps HTML forms out: they cannot send it.
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		writeError(w, http.StatusUnsupportedMediaType, "the body must be application/json")
		return
	}
	var req resolveRequest
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, 4<<10))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		writeError(w, http.StatusBadRequest, "bad request body: "+err.Error())
		return
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		writeError(w, http.StatusBadRequest, "bad request body: data after the JSON object")
		return
	}
	var outcome audit.Status
	switch req.Outcome {
	case "approve", "approved":
		outcome = audit.StatusApproved
	case "reject", "rejected":
		outcome = audit.StatusRejected
	default:
		writeError(w, http.StatusBadRequest, fmt.Sprintf("outcome %q: want approve or reject", req.Outcome))
		return
	}
	who, err := cleanName(req.Reviewer)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	if who == "" {
		who = s.cfg.Reviewer
	}
	if who == "" {
		writeError(w, http.StatusBadRequest, "no reviewer name: type yours in the page (or start command-safety review with --reviewer NAME)")
		return
	}
	ctx := r.Context()
	err = s.cfg.Log.Resolve(ctx, req.ID, outcome, who)
	var se *audit.StateError
	switch {
	case errors.As(err, &se):
		writeJSON(w, http.StatusConflict, conflict{Error: se.Error(), ID: se.ID, Status: se.Status,
			Reviewer: se.Reviewer, ReviewedAt: se.ReviewedAt})
		return
	case errors.Is(err, audit.ErrNotFound):
		writeError(w, http.StatusNotFound, err.Error())
		return
	case err != nil:
		writeError(w, http.StatusInternalServerError, err.Error())
		return
	}
	e, err := s.cfg.Log.Get(ctx, req.ID)
	if err != nil {
		writeError(w, http.StatusInternalServerError, err.Error())
		return
	}
	writeJSON(w, http.StatusOK, struct {
		Entry Entry `json:"entry"`
	}{s.entries([]audit.Entry{e})[0]})
}

// writeJSON writes v as JSON. encoding/json escapes <, > and & in strings,
// so command text can never be read as markup.
func writeJSON(w http.ResponseWriter, code int, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		code, data = http.StatusInternalServerError, []byte(`{"error":"cannot encode the response"}`)
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(code)
	w.Write(append(data, '\n'))
}

func writeError(w http.ResponseWriter, code int, msg string) {
	writeJSON(w, code, map[string]string{"error": msg})
}
