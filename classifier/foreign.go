package classifier

import (
	"encoding/base64"
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"

	"github.com/ml-ai/command-safety/effects"
)

// cmd.exe and PowerShell code run from the shell (`cmd /c "rd /s /q
// C:\Users\u"`, `powershell -c "Remove-Item -Recurse ~"`) is another
// language, not analysed (it stays opaque-medium, SPEC §3), but its
// deletion commands are found and their targets placed: a deletion outside
// the workspace, or of a target only known at run time, is refused as
// bash's rm is (SPEC §5.1). So are the files it writes where it names them
// (SPEC §5.2), its directory changes, which move both, and PowerShell
// running what it downloads (§5.7). This is a floor, not a parse: code it
// does not recognise keeps only the opaque verdict.

// foreignDeleteVerbs are the deletion commands of cmd.exe (cmd) and of
// PowerShell with its aliases (pwsh), lower case.
var foreignDeleteVerbs = map[bool][]string{
	false: {"rd", "rmdir", "del", "erase"},
	true:  {"remove-item", "ri", "rm", "rmdir", "rd", "del", "erase", "rp"},
}

// pwshValueParams are Remove-Item's parameters whose value is no target
// (the path parameters' values are targets).
var pwshValueParams = []string{"-include", "-exclude", "-filter", "-credential", "-stream"}

// cmdCode returns the code `cmd /c CODE` (or /k, /r, and Git Bash's //c)
// runs: the words after the switch, joined.
func (w *walker) cmdCode(args []field) (string, bool) {
	for i, a := range args {
		if a.dynamic {
			return "", false
		}
		switch strings.ToLower(a.value) {
		case "/c", "/k", "/r", "//c", "//k", "//r":
			return w.foreignCode(args[i+1:]), true
		}
	}
	return "", false
}

// foreignCode joins the words of foreign code; a word only known at run
// time is taken as written (`"Remove-Item $env:USERPROFILE"`: bash expands
// $env, PowerShell was meant to), its variables then place nothing.
func (w *walker) foreignCode(args []field) string {
	var b strings.Builder
	for j, r := range args {
		if j > 0 {
			b.WriteByte(' ')
		}
		if r.dynamic && r.word != nil {
			t := w.textOf(r.word)
			if len(t) >= 2 && t[0] == '"' && t[len(t)-1] == '"' {
				t = t[1 : len(t)-1] // bash's quotes, not the code's
			}
			b.WriteString(t)
		} else {
			b.WriteString(r.value)
		}
	}
	return b.String()
}

// foreignEffects classifies what code, cmd.exe's or (pwsh) PowerShell's,
// run by prog at n in dirs, is found to do: PowerShell running what it
// downloads, the files it writes and those it deletes.
func (w *walker) foreignEffects(n syntax.Node, prog, code string, pwsh bool, dirs []string) {
	if pwsh {
		w.pwshFetchRun(n, prog, code)
	}
	toks := foreignTokens(code)
	w.foreignWrites(n, prog, toks, pwsh, dirs)
	w.foreignDeletes(n, prog, toks, pwsh, dirs)
}

// foreignDeletes classifies the deletion commands of foreign code.
func (w *walker) foreignDeletes(n syntax.Node, prog string, toks []foreignToken, pwsh bool, dirs []string) {
	verbs := foreignDeleteVerbs[pwsh]
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if foreignCdAt(toks, i, pwsh) {
			dirs = w.foreignCd(toks[i+1:], dirs, pwsh)
			continue
		}
		// A command's first word only (`echo rd x` deletes nothing); cmd's
		// `@` does not echo the command.
		if t.sep || i > 0 && !toks[i-1].sep || !containsFold(verbs, strings.TrimPrefix(t.text, "@")) {
			continue
		}
		var targets []string
		for i++; i < len(toks) && !toks[i].sep; i++ {
			v := toks[i].text
			lv := strings.ToLower(v)
			switch {
			case pwsh && strings.HasPrefix(v, "-"):
				if containsFold(pwshValueParams, lv) && i+1 < len(toks) && !toks[i+1].sep {
					i++
				}
			case !pwsh && len(v) >= 2 && v[0] == '/' && !strings.Contains(v[1:], "/") && !strings.Contains(v, `\`):
				// a switch: /s, /q, /f, /a:h
			default:
				targets = append(targets, v)
			}
		}
		base := w.part(n, effects.Deletion, prog, fmt.Sprintf("`%s` runs %s, which deletes %s", brief(prog), t.text, strings.Join(targets, " ")))
		if len(targets) == 0 {
			w.remove(base, "") // what it deletes is not known (a pipeline's input, a default)
		}
		for _, v := range targets {
			p, ok := w.foreignPath(v, pwsh)
			if !ok {
				w.remove(base, "")
				continue
			}
			for _, r := range w.resolveIn(p, strings.ContainsAny(p, "*?["), dirs) {
				w.remove(base, r)
			}
		}
		i--
	}
}

// foreignWriteVerbs are the commands of cmd.exe (false) and PowerShell
// (true) that write a file, lower case, with where the file they write
// stands: "first" the first operand (Set-Content PATH), "last" the last
// (copy SRC DST); PowerShell's -Path, -FilePath, -LiteralPath and
// -Destination values count wherever they stand.
var foreignWriteVerbs = map[bool]map[string]string{
	false: {"copy": "last", "xcopy": "last", "move": "last", "robocopy": "second", "mklink": "first"},
	true: {"set-content": "first", "sc": "first", "add-content": "first", "ac": "first", "out-file": "first", "new-item": "first", "ni": "first",
		"tee-object": "first", "tee": "first", "copy-item": "last", "copy": "last", "cp": "last", "cpi": "last",
		"move-item": "last", "move": "last", "mv": "last", "mi": "last", "export-csv": "first", "export-clixml": "first"},
}

// foreignWrites classifies the files foreign code writes where it names
// them: redirections (`> FILE`, `>> FILE`) and the write commands above. A
// target it cannot place (a variable, an expression) keeps only the
// code's opaque verdict: a floor, as for deletions. ~/.bashrc, $PROFILE or
// %USERPROFILE%\x written is a home write, refused (SPEC §5.2).
func (w *walker) foreignWrites(n syntax.Node, prog string, toks []foreignToken, pwsh bool, dirs []string) {
	type target struct {
		v    string
		dirs []string
	}
	var found []string
	var targets []target
	flush := func() {
		for _, v := range found {
			targets = append(targets, target{v, dirs})
		}
		found = found[:0]
	}
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.sep {
			continue
		}
		if foreignCdAt(toks, i, pwsh) {
			flush()
			dirs = w.foreignCd(toks[i+1:], dirs, pwsh)
			continue
		}
		// Redirections anywhere in a command: `>F`, `> F`, `2>>F`.
		if j := strings.IndexByte(t.text, '>'); j >= 0 && strings.Trim(t.text[:j], "0123456789*") == "" {
			target := strings.TrimLeft(t.text[j:], ">")
			if target == "" && i+1 < len(toks) && !toks[i+1].sep {
				i++
				target = toks[i].text
			}
			if target != "" && !strings.HasPrefix(target, "&") {
				found = append(found, target)
			}
			continue
		}
		where, ok := foreignWriteVerbs[pwsh][strings.ToLower(strings.TrimPrefix(t.text, "@"))]
		if !ok || i > 0 && !toks[i-1].sep {
			continue
		}
		var ops []string
	args:
		for i++; i < len(toks) && !toks[i].sep; i++ {
			v, lv := toks[i].text, strings.ToLower(toks[i].text)
			switch {
			case pwsh && (lv == "-path" || lv == "-filepath" || lv == "-literalpath" || lv == "-destination" || lv == "-lp"):
				if i+1 < len(toks) && !toks[i+1].sep {
					i++
					found = append(found, toks[i].text)
				}
			case pwsh && strings.HasPrefix(v, "-"):
				if containsFold(pwshValueParams, lv) || lv == "-value" || lv == "-encoding" || lv == "-itemtype" || lv == "-name" {
					i++ // its value
				}
			case !pwsh && len(v) >= 2 && v[0] == '/' && !strings.Contains(v[1:], "/") && !strings.Contains(v, `\`):
				// a switch: /y, /e
			case strings.Contains(v, ">"):
				break args // a redirection: the outer loop takes it
			default:
				ops = append(ops, v)
			}
		}
		switch {
		case len(ops) == 0:
		case where == "first":
			found = append(found, ops[0])
		case where == "second" && len(ops) >= 2:
			found = append(found, ops[1])
		case where == "last" && len(ops) >= 2:
			found = append(found, ops[len(ops)-1])
		}
		i--
	}
	flush()
	for _, tg := range targets {
		v, dirs := tg.v, tg.dirs
		lv := strings.ToLower(v)
		if lv == "nul" || lv == "$null" || lv == "con" || lv == "/dev/null" {
			continue
		}
		if pwsh && (lv == "$profile" || strings.HasPrefix(lv, "$profile.")) {
			v = "~/Documents/PowerShell/Microsoft.PowerShell_profile.ps1" // in the home directory
		}
		p, ok := w.foreignPath(v, pwsh)
		if !ok {
			continue
		}
		base := w.part(n, effects.WriteOutside, prog, "")
		for _, r := range w.resolveIn(p, strings.ContainsAny(p, "*?["), dirs) {
			w.write(base, r, r == "")
		}
	}
}

// foreignCdVerbs change the directory of the code after them: cmd.exe's
// (false) and PowerShell's (true), lower case.
var foreignCdVerbs = map[bool][]string{
	false: {"cd", "chdir", "pushd"},
	true:  {"cd", "chdir", "set-location", "sl", "push-location", "pushd"},
}

// foreignCdAt reports whether toks[i] starts a command that changes the
// directory.
func foreignCdAt(toks []foreignToken, i int, pwsh bool) bool {
	return !toks[i].sep && (i == 0 || toks[i-1].sep) && containsFold(foreignCdVerbs[pwsh], strings.TrimPrefix(toks[i].text, "@"))
}

// foreignCd returns the directories foreign code is in after a directory
// change whose words are args: where it leads, together with where it was
// (the change may fail and a later command run anyway, `cd x & rd /s y`),
// or anywhere when it leads somewhere not known (a variable, `cd` alone).
func (w *walker) foreignCd(args []foreignToken, dirs []string, pwsh bool) []string {
	for _, a := range args {
		if a.sep {
			break
		}
		v := a.text
		if !pwsh && strings.EqualFold(v, "/d") || pwsh && len(v) > 1 && v[0] == '-' {
			continue // cmd's /d; PowerShell's -Path, -LiteralPath, -PassThru
		}
		if pwsh && v == "-" {
			return unknownDirs // the previous location
		}
		p, ok := w.foreignPath(v, pwsh)
		if !ok {
			return unknownDirs
		}
		return unionDirs(dirs, w.resolveIn(p, false, dirs))
	}
	return unknownDirs // cmd's bare cd prints; PowerShell's goes home
}

// pwshRunners run text as PowerShell code, and pwshFetchers fetch text
// from the network (lower case): code with one of each runs what it
// downloads, PowerShell's `curl URL | sh` (`iex (iwr URL)`, `irm URL |
// iex`, `(New-Object Net.WebClient).DownloadString(URL) | iex`).
var (
	pwshRunners  = []string{"iex", "invoke-expression", "[scriptblock]::create", "invoke-command", "icm"}
	pwshFetchers = []string{"iwr", "irm", "invoke-webrequest", "invoke-restmethod", "downloadstring", "downloaddata", "net.webclient", "start-bitstransfer", "curl ", "wget "}
)

// pwshFetchRun adds the unidentifiable part of PowerShell code that runs
// what it downloads (SPEC §5.7).
func (w *walker) pwshFetchRun(n syntax.Node, prog, code string) {
	lc := strings.ToLower(code)
	has := func(words []string) bool {
		for _, x := range words {
			if strings.Contains(lc, x) {
				return true
			}
		}
		return false
	}
	if has(pwshRunners) && has(pwshFetchers) {
		w.allKnown = false
		w.add(w.part(n, effects.OpaqueHigh, prog, fmt.Sprintf("`%s` runs PowerShell code it downloads, which cannot be identified", brief(w.textOf(n)))))
	}
}

// foreignPath is a target of foreign code as a path the classifier
// resolves: `~`, `$HOME`, `$env:USERPROFILE` and `%USERPROFILE%` are the
// home directory; any other variable or expression is not known.
func (w *walker) foreignPath(v string, pwsh bool) (string, bool) {
	if pwsh {
		for _, h := range []string{"~", "$home", "$env:userprofile", "${env:userprofile}", "$env:home"} {
			if rest, ok := cutPrefixFold(v, h); ok && (rest == "" || rest[0] == '/' || rest[0] == '\\') {
				if w.opts.Home == "" {
					return "", false
				}
				return w.opts.Home + "/" + strings.TrimLeft(rest, `/\`), true
			}
		}
	}
	if strings.ContainsAny(v, "$`(){}") || !pwsh && strings.Count(v, "%") >= 2 && !strings.HasPrefix(strings.ToUpper(v), "%USERPROFILE%") {
		return "", false
	}
	if strings.HasPrefix(v, "~") {
		return "", false // cmd.exe has no ~
	}
	return v, true
}

// foreignToken is a word of foreign code, or a separator between its
// commands (`&`, `&&`, `|`, `||`, `;`, a new line).
type foreignToken struct {
	text string
	sep  bool
}

// foreignTokens splits code into words (quotes removed, double or single)
// and command separators.
func foreignTokens(code string) []foreignToken {
	var out []foreignToken
	var cur strings.Builder
	inWord := false
	flush := func() {
		if inWord {
			out = append(out, foreignToken{text: cur.String()})
			cur.Reset()
			inWord = false
		}
	}
	var quote byte
	for i := 0; i < len(code); i++ {
		c := code[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else {
				cur.WriteByte(c)
			}
		case c == '"' || c == '\'':
			quote = c
			inWord = true
		case c == ' ' || c == '\t' || c == '\r':
			flush()
		case c == '&' || c == '|' || c == ';' || c == '\n' || c == '(' || c == ')' || c == '{' || c == '}':
			flush()
			out = append(out, foreignToken{sep: true})
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	flush()
	return out
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// decodePwsh decodes PowerShell's -EncodedCommand value: base64 (padded or
// not) of UTF-16LE text. ok is false when it is not that.
func decodePwsh(v string) (string, bool) {
	v = strings.TrimSpace(v)
	raw, err := base64.StdEncoding.DecodeString(v)
	if err != nil {
		if raw, err = base64.RawStdEncoding.DecodeString(strings.TrimRight(v, "=")); err != nil {
			return "", false
		}
	}
	if len(raw) == 0 || len(raw)%2 != 0 {
		return "", false
	}
	u := make([]uint16, len(raw)/2)
	for i := range u {
		u[i] = uint16(raw[2*i]) | uint16(raw[2*i+1])<<8
	}
	code := string(utf16.Decode(u))
	if !utf8.ValidString(code) || strings.ContainsRune(code, utf8.RuneError) || strings.ContainsRune(code, 0) {
		return "", false
	}
	return code, true
}
