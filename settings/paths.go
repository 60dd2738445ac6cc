package settings

import (
	"strings"
)

// Env is what the settings paths depend on. Library code never reads the
// process environment; cmd/command-safety builds an Env with [EnvFrom].
type Env struct {
	GOOS          string // "linux", "darwin", "windows", ...
	Home          string // the user's home directory; "" is unknown
	XDGConfigHome string // $XDG_CONFIG_HOME (used on Linux and other Unixes; ignored unless absolute)
	XDGDataHome   string // $XDG_DATA_HOME (code-server; ignored unless absolute)
	AppData       string // %APPDATA% (Windows)
	// PolicyFile replaces the managed policy's system location
	// ([PolicyFile]) in tests. [EnvFrom] never sets it: no environment
	// variable of a release binary moves the policy.
	PolicyFile string
}

// EnvFrom builds an [Env] for goos from getenv (os.Getenv). Home is $HOME, or
// on Windows %USERPROFILE% when $HOME is unset.
func EnvFrom(goos string, getenv func(string) string) Env {
	e := Env{
		GOOS:          goos,
		Home:          getenv("HOME"),
		XDGConfigHome: getenv("XDG_CONFIG_HOME"),
		XDGDataHome:   getenv("XDG_DATA_HOME"),
		AppData:       getenv("APPDATA"),
	}
	if goos == "windows" && e.Home == "" {
		e.Home = getenv("USERPROFILE")
	}
	return e
}

// editors lists the VS Code-family editors whose user settings are read, in
// the order their files are merged: the directory name each uses under the
// platform's configuration directory.
var editors = []string{"Code", "Code - Insiders", "VSCodium", "Cursor"}

// UserFiles returns the user settings.json paths for env, in merge order:
// VS Code ("Code"), VS Code Insiders ("Code - Insiders"), VSCodium
// ("VSCodium"), Cursor ("Cursor"), then code-server. Paths whose base directory is unknown (no Home,
// no APPDATA) are left out.
//
//	linux etc.: ${XDG_CONFIG_HOME:-~/.config}/<Editor>/User/settings.json
//	darwin:     ~/Library/Application Support/<Editor>/User/settings.json
//	windows:    %APPDATA%\<Editor>\User\settings.json (default ~\AppData\Roaming)
//	code-server (not windows): ${XDG_DATA_HOME:-~/.local/share}/code-server/User/settings.json
//
// code-server uses the XDG data directory on macOS too; it does not run
// natively on Windows.
func UserFiles(env Env) []string {
	var base string
	switch env.GOOS {
	case "windows":
		base = env.AppData
		if !env.abs(base) && env.Home != "" {
			base = env.join(env.Home, "AppData", "Roaming")
		}
		if !env.abs(base) {
			base = ""
		}
	case "darwin":
		if env.Home != "" {
			base = env.join(env.Home, "Library", "Application Support")
		}
	default:
		base = env.xdg(env.XDGConfigHome, ".config")
	}
	var files []string
	if base != "" {
		for _, ed := range editors {
			files = append(files, env.join(base, ed, "User", "settings.json"))
		}
	}
	if env.GOOS != "windows" {
		if data := env.xdg(env.XDGDataHome, ".local/share"); data != "" {
			files = append(files, env.join(data, "code-server", "User", "settings.json"))
		}
	}
	return files
}

// WorkspaceFile returns root's `.vscode/settings.json` for env's OS.
func WorkspaceFile(env Env, root string) string {
	return env.join(root, ".vscode", "settings.json")
}

// xdg returns value when it is absolute (the XDG spec ignores relative
// values), else ~/fallback, or "" when Home is unknown.
func (e Env) xdg(value, fallback string) string {
	if e.abs(value) {
		return e.join(value)
	}
	if e.Home == "" {
		return ""
	}
	return e.join(e.Home, fallback)
}

func (e Env) sep() string {
	if e.GOOS == "windows" {
		return `\`
	}
	return "/"
}

// abs reports whether p is absolute for e's OS.
func (e Env) abs(p string) bool {
	if e.GOOS != "windows" {
		return strings.HasPrefix(p, "/")
	}
	if strings.HasPrefix(p, `\\`) || strings.HasPrefix(p, "//") {
		return true // UNC
	}
	return len(p) >= 3 && p[1] == ':' && (p[2] == '\\' || p[2] == '/')
}

// join joins path elements with e's separator, dropping a separator at the
// end of an element and splitting elements that contain "/".
func (e Env) join(elem ...string) string {
	sep := e.sep()
	var b strings.Builder
	for i, el := range elem {
		if e.GOOS == "windows" {
			el = strings.ReplaceAll(el, "/", `\`)
		}
		if i > 0 {
			el = strings.TrimLeft(el, sep)
			if !strings.HasSuffix(b.String(), sep) {
				b.WriteString(sep)
			}
		}
		if i < len(elem)-1 && len(el) > 1 {
			el = strings.TrimRight(el, sep)
			if el == "" {
				el = sep
			}
		}
		b.WriteString(el)
	}
	return b.String()
}
