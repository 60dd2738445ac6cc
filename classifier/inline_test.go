package classifier

import (
	"reflect"
	"testing"
)

// TestFindShellCalls: the shell calls found in inline code, with a whole
// literal as the command, a list or more literal arguments spelling one,
// and anything else built at run time; names inside strings and methods
// with a non-literal argument are no calls.
func TestFindShellCalls(t *testing.T) {
	py := []string{"os.system", "subprocess.run"}
	node := []string{"exec", "execSync", "spawnSync"}
	perl := []string{"system", "qx", "`"}
	for _, tc := range []struct {
		code    string
		names   []string
		dollars bool
		want    []shellCall
	}{
		{`import os; os.system("ls -la")`, py, false, []shellCall{{code: "ls -la", literal: true}}},
		{`os.system( 'a' )`, py, false, []shellCall{{code: "a", literal: true}}},
		{`os.system("rm -rf " + h)`, py, false, []shellCall{{code: "rm -rf ", built: true, literal: true}}},
		{`os.system(f"rm {h}")`, py, false, []shellCall{{built: true}}},
		{`subprocess.run(["rm", "-rf", "x y"])`, py, false, []shellCall{{code: `'rm' '-rf' 'x y'`}}},
		{`subprocess.run(["rm", p])`, py, false, []shellCall{{built: true}}},
		{`subprocess.run("ls", shell=True)`, py, false, []shellCall{{code: "ls", literal: true}}},
		{`print('os.system(x)')`, py, false, nil},
		{`myos.system("x")`, py, false, []shellCall{{code: "x", literal: true}}}, // dotted names match as written
		{`require("child_process").execSync("make")`, node, false, []shellCall{{code: "make", literal: true}}},
		{`/v(\d+)/.exec(process.version)`, node, false, nil},
		{`cp.spawnSync("rm", ["-rf", "/x"])`, node, false, []shellCall{{code: `'rm' '-rf' '/x'`, literal: true}}},
		{"exec(`rm ${h}`)", node, false, []shellCall{{code: "rm ${h}", built: true, literal: true}}},
		{`executor("x")`, node, false, nil},
		{`system "rm -rf ~"`, perl, true, []shellCall{{code: "rm -rf ~", literal: true}}},
		{`system("rm -rf $ENV{HOME}")`, perl, true, []shellCall{{code: "rm -rf $ENV{HOME}", built: true, literal: true}}},
		{`system('rm', '-rf', 'x')`, perl, true, []shellCall{{code: `'rm' '-rf' 'x'`, literal: true}}},
		{`print qx{ls}`, perl, true, []shellCall{{code: "ls"}}},
		{"print `date`", perl, true, []shellCall{{code: "date"}}},
		{`$qx = 1; systemd()`, perl, true, nil},
		{`os.system(`, py, false, nil},
		{``, py, false, nil},
	} {
		if got := findShellCalls(tc.code, tc.names, tc.dollars); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %+v, want %+v", tc.code, got, tc.want)
		}
	}
}

// TestFindDeleteCalls: the paths deletion calls name, "" for the home
// directory; a built argument or a name in a string is none.
func TestFindDeleteCalls(t *testing.T) {
	py, pyHome := []string{"shutil.rmtree", "os.remove"}, []string{"Path.home()", "os.path.expanduser('~')"}
	for _, tc := range []struct {
		code string
		want []string
	}{
		{`shutil.rmtree('/x')`, []string{"/x"}},
		{`shutil.rmtree(Path.home())`, []string{""}},
		{`shutil.rmtree(os.path.expanduser('~'), ignore_errors=True)`, []string{""}},
		{`shutil.rmtree(d)`, nil},
		{`shutil.rmtree('/x' + d)`, nil},
		{`print("shutil.rmtree('/')")`, nil},
		{`os.removedirs('/x')`, nil}, // another name
		{`os.remove('a'); os.remove('b')`, []string{"a", "b"}},
	} {
		if got := findDeleteCalls(tc.code, py, pyHome); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.code, got, tc.want)
		}
	}
}

// TestStringLiteralsAndMentions: the literals inline code holds, and
// whether a name stands in it outside them as a whole name.
func TestStringLiteralsAndMentions(t *testing.T) {
	if got, want := stringLiterals(`open('a.env'); x = "b\"c"; y = ''`), []string{"a.env", `b"c`, ""}; !reflect.DeepEqual(got, want) {
		t.Errorf("stringLiterals = %q, want %q", got, want)
	}
	for _, tc := range []struct {
		code string
		want bool
	}{
		{"import requests; requests.get(u)", true},
		{"import myrequests", false},
		{"print('requests')", false},
		{"x = requests_cache", false},
		{"urllib.request.urlopen(u)", true},
	} {
		if got := mentions(tc.code, []string{"requests", "urllib.request"}); got != tc.want {
			t.Errorf("mentions(%q) = %v", tc.code, got)
		}
	}
}

// FuzzFindShellCalls: any code, any names: no panic, and at most
// maxShellCalls per name.
func FuzzFindShellCalls(f *testing.F) {
	for _, s := range []string{`os.system("x")`, "qx{a}", "`b`", `spawn("a", ["b", c])`, `system "a`, "qx(", `exec([`} {
		f.Add(s)
	}
	names := []string{"os.system", "exec", "qx", "%x", "`", "system", "spawn"}
	f.Fuzz(func(t *testing.T, code string) {
		if got := findShellCalls(code, names, true); len(got) > maxShellCalls*len(names) {
			t.Fatalf("%d calls", len(got))
		}
		if got := findDeleteCalls(code, names, []string{"Dir.home", "$ENV{HOME}"}); len(got) > maxShellCalls*len(names) {
			t.Fatalf("%d deletions", len(got))
		}
		if got := stringLiterals(code); len(got) > maxShellCalls {
			t.Fatalf("%d literals", len(got))
		}
		mentions(code, names)
	})
}
