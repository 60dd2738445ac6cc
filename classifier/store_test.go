package classifier

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/ml-ai/command-safety/effects"
)

// storeTree is an installation on the real filesystem whose rule store is
// reached through aliases (the corpus has the same with a fake filesystem,
// which can also bind-mount):
//
//	home/.config/Code/User/settings.json -> home/ws/dotfiles/settings.json
//	home/.config/Cursor/User/settings.json -> home/ws/dotfiles/cursor.json (missing)
//	home/state/gate.db (the decision log), home/ws/logs -> home/state
//	home/ws/hard.db: a hard link of home/state/gate.db
//	home/bin/command-safety (the binary), home/ws/cs -> it, home/ws/cs-hard: a hard link
//	home/ws/to-vscodium -> home/.config/VSCodium/User/settings.json (missing)
func storeTree(t *testing.T) (Options, string) {
	t.Helper()
	home, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ws := filepath.Join(home, "ws")
	for _, d := range []string{"ws/dotfiles", "ws/src", ".config/Code/User", ".config/Cursor/User", ".config/VSCodium/User", "state", "bin"} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"ws/dotfiles/settings.json", "ws/dotfiles/other.json", "state/gate.db", "bin/command-safety"} {
		if err := os.WriteFile(filepath.Join(home, f), []byte("x"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{
		".config/Code/User/settings.json":   "ws/dotfiles/settings.json",
		".config/Cursor/User/settings.json": "ws/dotfiles/cursor.json",
		"ws/logs":                           "state",
		"ws/cs":                             "bin/command-safety",
		"ws/to-vscodium":                    ".config/VSCodium/User/settings.json",
	} {
		if err := os.Symlink(filepath.Join(home, target), filepath.Join(home, link)); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{"ws/hard.db": "state/gate.db", "ws/cs-hard": "bin/command-safety"} {
		if err := os.Link(filepath.Join(home, target), filepath.Join(home, link)); err != nil {
			t.Skipf("no hard links here: %v", err)
		}
	}
	j := func(p string) string { return filepath.Join(home, p) }
	return Options{
		Cwd: ws, Workspaces: []string{ws}, Home: home,
		RuleStore: []string{j(".config/Code/User/settings.json"), j(".config/Cursor/User/settings.json"),
			j(".config/VSCodium/User/settings.json"), j("state/gate.db"), j("state/gate.db-wal")},
		Binaries: []string{j("bin/command-safety")},
	}, home
}

// TestRuleStoreAliases: on the real filesystem, a rule-store member written,
// moved or deleted through a symlink (either way, dangling too), a hard link
// or `..` is a rule-store modification; its look-alikes are not.
func TestRuleStoreAliases(t *testing.T) {
	opts, _ := storeTree(t)
	for _, tc := range []struct {
		cmd   string
		store bool
	}{
		{"echo '{}' > dotfiles/settings.json", true},        // the user settings are a symlink to it
		{"sed -i s/a/b/ dotfiles/settings.json", true},      //
		{"rm -rf dotfiles", true},                           // holds the user settings
		{"mv dotfiles /tmp/x", true},                        //
		{"echo '{}' > src/../dotfiles/settings.json", true}, // `..`
		{"echo '{}' > dotfiles/cursor.json", true},          // dangling: creates Cursor's user settings
		{"echo '{}' > to-vscodium", true},                   // dangling the other way
		{"echo x > logs/gate.db", true},                     // the log through a symlinked directory
		{"echo x > logs/gate.db-wal", true},                 //
		{"sqlite3 logs/gate.db 'drop trigger verdicts_no_update'", true},
		{"echo x > hard.db", true},                       // a hard link of the log
		{"sqlite3 hard.db 'delete from verdicts'", true}, //
		{"cp /dev/null cs-hard", true},                   // a hard link of the binary
		{"echo x > dotfiles/other.json", false},          // look-alikes
		{"echo x > logs/notes.txt", false},               //
		{"cat dotfiles/settings.json", false},            //
		{"sqlite3 -readonly logs/gate.db 'select count(*) from verdicts'", false},
	} {
		rs := refusals(Classify(tc.cmd, opts))
		if got := slices.Contains(rs, string(effects.RuleStoreModification)); got != tc.store {
			t.Errorf("%s: rule-store refusal %v, want %v (refusals %v)", tc.cmd, got, tc.store, rs)
		}
	}
}

// TestGateBinaryIdentity: a program that resolves to the gate's binary, or
// is the same file, is the command-safety entry.
func TestGateBinaryIdentity(t *testing.T) {
	opts, home := storeTree(t)
	bin := filepath.Join(home, "bin", "command-safety")
	for _, tc := range []struct {
		cmd   string
		store bool // refused as rule-store-modification
		read  bool // only read parts
	}{
		{bin + " hook uninstall claude-code --user", true, false},
		{"./cs log resolve 3 approve", true, false},
		{"./cs-hard review", true, false},
		{"env ./cs hook install cursor", true, false},
		{bin + " check -- 'rm -rf ~'", false, true},
		{"./cs log stats", false, true},
		{"./cs-hard help", false, true},
	} {
		r := Classify(tc.cmd, opts)
		if got := slices.Contains(refusals(r), string(effects.RuleStoreModification)); got != tc.store {
			t.Errorf("%s: rule-store refusal %v, want %v (%+v)", tc.cmd, got, tc.store, r.Parts)
		}
		if tc.read {
			for _, p := range r.Parts {
				if p.Class != effects.Read {
					t.Errorf("%s: part %s %q, want reads only", tc.cmd, p.Class, p.Text)
				}
			}
		}
	}
	// Without the binaries named, the same file is a program from outside
	// the workspace (its target is).
	opts.Binaries = nil
	r := Classify("./cs hook uninstall claude-code", opts)
	if rs := refusals(r); len(rs) != 0 || r.Parts[0].Class != effects.OpaqueMedium {
		t.Errorf("./cs without Binaries: %+v, want an opaque-medium program", r.Parts)
	}
}

// TestReadsResolveNoStore: a command that writes nothing never resolves the
// rule store (no system call for it), and one that writes resolves it once.
func TestReadsResolveNoStore(t *testing.T) {
	opts, _ := storeTree(t)
	for _, cmd := range []string{"ls -la", "git status", "cat dotfiles/settings.json", "grep -rn x .", "cd src && ls"} {
		w := newWalker(cmd, opts)
		w.classifyLine(cmd)
		w.finish()
		if w.store != nil {
			t.Errorf("%s resolved the rule store", cmd)
		}
	}
	w := newWalker("echo a > x; echo b > y; rm -f z", opts)
	w.classifyLine(w.orig)
	w.finish()
	if w.store == nil || len(w.store.members) == 0 {
		t.Fatalf("a write did not resolve the rule store")
	}
}

// TestSQLiteURIFile: the file a SQLite URI filename opens.
func TestSQLiteURIFile(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string
		ok   bool
	}{
		{"file:app.db", "app.db", true},
		{"file:app.db?mode=ro&cache=shared", "app.db", true},
		{"file:/srv/x/gate.db#frag", "/srv/x/gate.db", true},
		{"file:///srv/x/gate.db", "/srv/x/gate.db", true},
		{"file://localhost/srv/x/gate.db", "/srv/x/gate.db", true},
		{"file:logs/gate%2Edb", "logs/gate.db", true},
		{"file::memory:", "", true},
		{"file:?mode=memory", "", true},
		{"file://host/srv/x.db", "", false},
		{"file:bad%zz", "", false},
	} {
		got, ok := sqliteURIFile(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("sqliteURIFile(%q) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}
