package classifier

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ml-ai/command-safety/effects"
)

// realFind returns GNU find for the tests that check the classifier
// against it; like realBash it skips without one unless REQUIRE_SHELLS=1.
func realFind(t *testing.T) string {
	t.Helper()
	find, err := exec.LookPath("find")
	if err == nil {
		if out, _ := exec.Command(find, "--version").Output(); strings.Contains(string(out), "GNU findutils") {
			return find
		}
	}
	if os.Getenv("REQUIRE_SHELLS") == "1" {
		t.Fatal("GNU find is required")
	}
	t.Skip("no GNU find on this machine")
	return ""
}

// TestFindRootMatchesFind classifies `find START EXPR -delete` started at a
// workspace root from its subdirectory and, where the classifier says the
// root is not deleted, requires the real find given `START EXPR -print`
// (print, never delete, in a temporary directory) not to select the start.
// safe lists what the classifier must prove from `..`, so that precision is
// held too (from `../` or the root's own path a test may prove more).
func TestFindRootMatchesFind(t *testing.T) {
	find := realFind(t)
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ws := filepath.Join(root, "ws")
	for _, d := range []string{"ws/src", "ws/node_modules/x", "ws/build/y"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"ws/a.pyc", "ws/src/b.pyc", "ws/build/y/c.o"} {
		if err := os.WriteFile(filepath.Join(root, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		expr string // words, split on spaces
		safe bool   // the classifier proves the start is not deleted
	}{
		{"-name *.pyc", true},
		{"", false},
		{"-name w*", false},
		{"-name ws", false},
		{"-iname W*", false},
		{"-name .*", false},
		{"-name [.][.]", false},
		{"-name [!w]*", false},
		{"-name \\.\\.", false},
		{"-iname *.PYC", true},
		{"-type f", true},
		{"-type d", false},
		{"-type f,d", false},
		{"-type d -name __pycache__", true},
		{"! -name *.pyc", false},
		{"-not -name ws", false},
		{"! ! -name *.pyc", true},
		{"! -type d", true},
		{"-mindepth 1", true},
		{"-maxdepth 0", false},
		{"-path */build/*", true},
		{"-path *", false},
		{"-path ..", false},
		{"-path ..*", false},
		{"-ipath */BUILD/*", true},
		{"( -name *.pyc -o -name *.pyo )", true},
		{"( -name *.pyc -o -name .. )", false},
		{"-name *.pyc -o -name x", true},
		{"-name node_modules -prune -o -name *.pyc", true},
		{"-name *.pyc , -true", false},
		{"-false -o -true", false},
		{"-true", false},
		{"-false", true},
		{"-empty", false},
		{"-regex .*\\.pyc", false},
		{"-name *.pyc -a -type f", true},
		{"-name *.pyc -or -type d", false},
	}
	for _, start := range []string{"..", "../", ws} {
		for _, c := range cases {
			words := strings.Fields(c.expr)
			quoted := make([]string, len(words))
			for i, x := range words {
				quoted[i] = shellQuote(x)
			}
			cmd := strings.TrimSpace("find " + shellQuote(start) + " " + strings.Join(quoted, " ") + " -delete")
			r := Classify(cmd, Options{Cwd: filepath.Join(ws, "src"), Workspaces: []string{ws}, Home: root, Shell: Bash})
			safe := !slices.Contains(refusals(r), string(effects.DeleteOutsideWorkspace))
			args := append(append([]string{start}, words...), "-print")
			out, err := exec.Command(find, args...).Output()
			if err != nil {
				t.Fatalf("find %q: %v", args, err)
			}
			selected := slices.Contains(strings.Split(strings.TrimSpace(string(out)), "\n"), start)
			if safe && selected {
				t.Errorf("%s: the classifier says the root is not deleted, but find selects %s", cmd, start)
			}
			if start == ".." && safe != c.safe || c.safe && !safe {
				t.Errorf("%s: root proven safe = %v, want %v (%v)", cmd, safe, c.safe, r.Parts)
			}
		}
	}
}

// TestCredentialNamesMatchFind runs the real find's -name and -iname over a
// directory of files named like stored credentials and others, and checks
// credentialName against it: a pattern said to match credentials selects
// one there, and a pattern said not to selects none of the fixed
// dot-names (`.env`, `.netrc`). Open names (`x.pem`, `id_rsa.pub`) count
// only when the pattern spells what makes them credentials (globmatch.go):
// `x.*` selects x.pem through a star and is not a credential pattern.
func TestCredentialNamesMatchFind(t *testing.T) {
	find := realFind(t)
	dir := t.TempDir()
	fixed := []string{".env", ".netrc", ".npmrc", ".pypirc", ".git-credentials"}
	open := []string{".env.local", ".env.production", "x.pem", "server.key", "id_rsa", "id_rsa.pub", "id_ed25519", "_netrc"}
	plain := []string{"README.md", "main.go", "x.go", "notes.txt", ".gitignore", "Makefile"}
	for _, f := range slices.Concat(fixed, open, plain) {
		if err := os.WriteFile(filepath.Join(dir, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	w := newWalker("", Options{})
	cases := []struct {
		test, pat string
		want      bool
	}{
		{"-name", "*", true},
		{"-name", ".*", true},
		{"-name", ".env*", true},
		{"-name", "*env*", true},
		{"-name", ".e?v", true},
		{"-name", "[.]env", true},
		{"-name", ".[e]nv", true},
		{"-name", "*rc", true},
		{"-name", "*.pem", true},
		{"-name", "*.p?m", true},
		{"-name", "*.[kK]ey", true},
		{"-name", "id_*", true},
		{"-name", "*.pub", false}, // id_rsa.pub only through id_rsa's open tail
		{"-name", "*.local", false},
		{"-name", ".env.*", true},
		{"-name", "_*", false},
		{"-name", "*.go", false},
		{"-name", "README*", false},
		{"-name", "*.md", false},
		{"-name", "x.*", false},
		{"-name", "Makefile", false},
		{"-name", ".gitignore", false},
		{"-name", ".env.example", false},
		{"-name", "[!.]*", false},
		{"-iname", ".ENV", true},
		{"-iname", "*.PEM", true},
		{"-iname", "*.GO", false},
		{"-iname", "ID_RSA*", true},
	}
	for _, c := range cases {
		out, err := exec.Command(find, dir, "-mindepth", "1", c.test, c.pat, "-printf", "%f\n").Output()
		if err != nil {
			t.Fatalf("find %s %q: %v", c.test, c.pat, err)
		}
		got := strings.Fields(string(out))
		var creds, fixedHit []string
		for _, f := range got {
			if slices.Contains(fixed, f) {
				fixedHit = append(fixedHit, f)
			}
			if slices.Contains(fixed, f) || slices.Contains(open, f) {
				creds = append(creds, f)
			}
		}
		cred := w.credentialName(c.pat, c.test == "-iname")
		if cred != c.want {
			t.Errorf("%s %q: credentialName = %v, want %v", c.test, c.pat, cred, c.want)
		}
		if cred && len(creds) == 0 {
			t.Errorf("%s %q: said to match credentials, but find selects none of them (%q)", c.test, c.pat, got)
		}
		if !cred && len(fixedHit) > 0 {
			t.Errorf("%s %q: said not to match credentials, but find selects %q", c.test, c.pat, fixedHit)
		}
	}
}

// TestGlobMatch checks the glob reader against names, the way fnmatch
// (find -name) reads them.
func TestGlobMatch(t *testing.T) {
	cases := []struct {
		pat, name    string
		fold         bool
		match, known bool
	}{
		{"*.pyc", "a.pyc", false, true, true},
		{"*.pyc", "ws", false, false, true},
		{"w*", "ws", false, true, true},
		{"W*", "ws", true, true, true},
		{"W*", "ws", false, false, true},
		{"[vw]s", "ws", false, true, true},
		{"[!w]s", "ws", false, false, true},
		{"[^w]s", "xs", false, true, true},
		{"[a-z]s", "ws", false, true, true},
		{"[]]", "]", false, true, true},
		{"\\*", "*", false, true, true},
		{"\\*", "a", false, false, true},
		{"?", "..", false, false, true},
		{"??", "..", false, true, true},
		{"[[:alpha:]]*", "ws", false, true, false},
		{"[[:alpha:]]*", "", false, false, true},
		{"[ab", "[ab", false, true, false},
		{"*", "", false, true, true},
		{"a*b*c", "aXbYc", false, true, true},
		{"a*b*c", "aXbY", false, false, true},
	}
	for _, c := range cases {
		m, known := globMatch(c.pat, c.name, globOpts{fold: c.fold})
		if m != c.match || known != c.known {
			t.Errorf("globMatch(%q, %q, fold %v) = %v, %v; want %v, %v", c.pat, c.name, c.fold, m, known, c.match, c.known)
		}
	}
}

// TestCredentialGlob checks shell globs and find -path patterns against
// the paths of stored credentials.
func TestCredentialGlob(t *testing.T) {
	w := newWalker("", Options{Home: "/home/u"})
	cases := []struct {
		pat  string
		o    globOpts
		want bool
	}{
		{"/home/u/.env*", globOpts{dots: true}, true},
		{".e?v", globOpts{dots: true}, true},
		{"*.pem", globOpts{dots: true}, true},
		{"/home/u/.ssh/*", globOpts{dots: true}, true},
		{"/home/u/.aws/*", globOpts{dots: true}, true},
		{"/home/u/.ss?/id*", globOpts{dots: true}, true},
		{"dist/*", globOpts{dots: true}, false},
		{"*", globOpts{dots: true}, false},
		{"/home/u/*/*", globOpts{dots: true}, false},
		{"*.go", globOpts{dots: true}, false},
		{"READ*", globOpts{dots: true}, false},
		{".*", globOpts{dots: true}, true},
		{"*/.ssh/*", globOpts{slash: true}, true},
		{"./src/*.go", globOpts{slash: true}, false},
		{"*", globOpts{slash: true}, true},
	}
	for _, c := range cases {
		if got := w.credentialGlob(c.pat, c.o); got != c.want {
			t.Errorf("credentialGlob(%q, %+v) = %v, want %v", c.pat, c.o, got, c.want)
		}
	}
}

// FuzzGlob reads any pattern without panicking, and a pattern matches its
// own text when it has no glob syntax (known to, unless folding bytes that
// are not ASCII).
func FuzzGlob(f *testing.F) {
	for _, s := range []string{"*.pyc", "[!w]*", "[[:alpha:]]", "[a-", "\\", "[]]", ".env*", "id_*", "*/.ssh/*"} {
		f.Add(s, "ws", false)
	}
	w := newWalker("", Options{Home: "/home/u"})
	f.Fuzz(func(t *testing.T, pat, name string, fold bool) {
		globMatch(pat, name, globOpts{fold: fold})
		w.credentialName(pat, fold)
		w.credentialGlob(pat, globOpts{dots: true, fold: fold})
		if !strings.ContainsAny(pat, "*?[\\") && len(pat) <= maxGlob {
			ascii := !strings.ContainsFunc(pat, func(r rune) bool { return r >= 0x80 || r == utf8.RuneError })
			if m, known := globMatch(pat, pat, globOpts{fold: fold}); !m || !known && (!fold || ascii) {
				t.Errorf("globMatch(%q, itself) = %v, %v", pat, m, known)
			}
		}
	})
}

// TestDevTCPMatchesShells opens /dev/tcp/127.0.0.1/1 (a closed local port,
// so nothing is sent) in each shell and checks the classifier's reading of
// the redirection against what the shell did: bash connects (a network
// part), zsh and dash open a file of that name (no network part).
func TestDevTCPMatchesShells(t *testing.T) {
	const cmd = "exec 3<>/dev/tcp/127.0.0.1/1"
	shells := []struct {
		name    string
		path    string
		d       Dialect
		network bool
	}{
		{"bash", realBash(t), Bash, true},
		{"zsh", realZsh(t), Zsh, false},
	}
	if dash, err := exec.LookPath("dash"); err == nil {
		shells = append(shells, struct {
			name    string
			path    string
			d       Dialect
			network bool
		}{"dash", dash, Sh, false})
	}
	for _, sh := range shells {
		args := []string{"-c", cmd}
		if sh.name == "zsh" {
			args = []string{"-f", "-c", cmd}
		}
		c := exec.Command(sh.path, args...)
		c.Dir, c.Env = t.TempDir(), []string{"HOME=" + t.TempDir(), "PATH=/usr/bin:/bin"}
		out, _ := c.CombinedOutput()
		connected := strings.Contains(string(out), "Connection refused") || strings.Contains(string(out), "connect")
		if connected != sh.network {
			t.Fatalf("%s: connected = %v, want %v (%s)", sh.name, connected, sh.network, out)
		}
		r := Classify(cmd, Options{Cwd: "/home/u/ws", Workspaces: []string{"/home/u/ws"}, Home: "/home/u", Shell: sh.d, FS: emptyFS{}})
		network := slices.Contains(classesOf(r), effects.Network)
		// sh is read as POSIX sh and as bash: bash's reading adds the
		// network part; the POSIX reading's device write must be there.
		if sh.d == Sh {
			if !network || !slices.Contains(refusals(r), string(effects.WriteProtectedPath)) {
				t.Errorf("%s: %s classified %v, want bash's network and POSIX sh's device write", sh.name, cmd, r.Parts)
			}
			continue
		}
		if network != sh.network {
			t.Errorf("%s: %s has a network part = %v, want %v (%v)", sh.name, cmd, network, sh.network, r.Parts)
		}
	}
}
