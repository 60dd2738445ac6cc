package main

import (
	"os/exec"
	"sort"
	"strings"
	"testing"
)

const module = "github.com/ml-ai/command-safety"

// layering is a statement of policy (STYLE §2): for each package of the
// module, the module packages and third-party import path prefixes it may
// import directly. The standard library is always allowed. Any edge not
// listed fails the test, as in golang/go's go/build deps_test.go.
var layering = map[string][]string{
	"effects":    {},
	"strictjson": {},
	"classifier": {"effects", "mvdan.cc/sh/v3/"},
	"budgets":    {"effects"},
	"settings":   {"budgets", "effects", "github.com/fsnotify/fsnotify", "github.com/tailscale/hujson"},
	"gate":       {"classifier", "budgets", "effects"},
	"audit":      {"gate", "effects", "journal", "modernc.org/sqlite"},
	// The hooks' journal and the hook's wiring: what cmd/command-safety-hook
	// links (TestHookBinaryDeps), so never SQLite, jsonrpc or telemetry.
	"journal": {"gate", "effects"},
	"policy":  {"gate", "settings"},
	"hookrun": {"hooks", "gate", "settings", "journal", "policy", "effects"},
	"jsonrpc": {"gate", "audit", "settings", "budgets", "effects", "policy", "go.lsp.dev/jsonrpc2", "go.lsp.dev/protocol",
		"github.com/fsnotify/fsnotify"},
	"hooks":  {"gate", "effects", "strictjson"},
	"review": {"audit", "effects"},
	// The OpenTelemetry export reads committed rows and hands them to the
	// SDK; the answer path (gate, hooks) never imports it.
	"telemetry": {"audit", "gate", "effects", "settings", "internal/atomicfile", "go.opentelemetry.io/otel"},
	// A real collector OTLP receiver, for tests only.
	"telemetry/otlptest":      {"go.opentelemetry.io/collector/"},
	"cmd/command-safety":      {"*"},
	"cmd/command-safety-hook": {"hookrun", "hooks", "journal", "gate"},
	"bench":                   {"*"},
	// Replacing a file whole (settings, telemetry's state): the standard library only.
	"internal/atomicfile": {},
	// The benchmarks' shared inputs, for benchmarks only.
	"internal/benchmix": {"classifier"},
	// The real agent CLIs' end-to-end tests run the built binary, as an
	// agent does, so they import nothing of the module.
	"e2e/agents": {},
}

func TestLayering(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Imports " "}}`, module+"/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	seen := map[string]bool{}
	used := map[string]map[string]bool{} // package -> policy entries it uses
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg := strings.TrimPrefix(strings.TrimPrefix(fields[0], module), "/")
		top := pkg
		if i := strings.Index(pkg, "/internal"); i >= 0 {
			top = pkg[:i]
		}
		if strings.HasPrefix(pkg, "bench/") {
			top = "bench" // benchmark drivers are programs, like cmd
		}
		allowed, ok := layering[top]
		if !ok {
			t.Errorf("package %q is not in the layering policy: add it to layering_test.go on purpose", pkg)
			continue
		}
		seen[top] = true
		for _, imp := range fields[1:] {
			if !strings.Contains(strings.Split(imp, "/")[0], ".") {
				continue // standard library
			}
			a, ok := allows(allowed, top, imp)
			if !ok {
				t.Errorf("%s imports %s, which the layering policy does not allow", pkg, imp)
			}
			if used[top] == nil {
				used[top] = map[string]bool{}
			}
			used[top][a] = true
		}
	}
	// The policy states the edges the code has: an allowed edge nothing uses
	// is a permission waiting to be abused, so it must be removed.
	for top, allowed := range layering {
		for _, a := range allowed {
			if a != "*" && !used[top][a] && seen[top] {
				t.Errorf("the layering policy lets %s import %s, which it does not: remove the edge", top, a)
			}
		}
	}
	var missing []string
	for p := range layering {
		if !seen[p] && p != "review" && p != "bench" {
			missing = append(missing, p)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("policy names packages that do not exist: %v", missing)
	}
}

// allows reports whether the policy entries allowed let self import imp,
// and which entry does ("" for self's own internal packages).
func allows(allowed []string, self, imp string) (string, bool) {
	if strings.HasPrefix(imp, module+"/") {
		target := strings.TrimPrefix(imp, module+"/")
		if strings.HasPrefix(target, self+"/internal") {
			return "", true
		}
		for _, a := range allowed {
			if a == "*" || a == target {
				return a, true
			}
		}
		return "", false
	}
	for _, a := range allowed {
		if a == "*" || imp == a || strings.HasPrefix(imp, strings.TrimSuffix(a, "/")+"/") {
			return a, true
		}
	}
	return "", false
}

// TestHookBinaryDeps: the hook binary links none of what made a hook slow to
// start (issue 17): SQLite, the JSON-RPC server, the OpenTelemetry SDK, the
// review page's HTTP server.
func TestHookBinaryDeps(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", module+"/cmd/command-safety-hook").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 {
		t.Fatalf("go list -deps gave %d packages: %v", len(deps), deps)
	}
	for _, d := range deps {
		for _, banned := range []string{"modernc.org/", "go.opentelemetry.io/", "google.golang.org/grpc", "go.lsp.dev/",
			module + "/audit", module + "/jsonrpc", module + "/telemetry", module + "/review", "net/http", "database/sql"} {
			if d == banned || strings.HasPrefix(d, banned) && (strings.HasSuffix(banned, "/") || strings.HasPrefix(d, banned+"/")) {
				t.Errorf("command-safety-hook links %s", d)
			}
		}
	}
}
