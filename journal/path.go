package journal

import (
	"errors"
	"strings"
)

// Env is what [DefaultPath] (package audit: audit.DefaultPath) reads from the environment, explicit so that
// tests cover every platform from any platform.
type Env struct {
	GOOS         string // "linux", "darwin", "windows", ...
	Home         string // the user's home directory
	XDGStateHome string // $XDG_STATE_HOME (used when absolute)
	LocalAppData string // %LOCALAPPDATA% (Windows)
}

// EnvFrom builds an [Env] for goos from getenv (os.Getenv); library code
// never reads the process environment itself. Home is $HOME, or on Windows
// %USERPROFILE% when $HOME is unset.
func EnvFrom(goos string, getenv func(string) string) Env {
	e := Env{
		GOOS:         goos,
		Home:         getenv("HOME"),
		XDGStateHome: getenv("XDG_STATE_HOME"),
		LocalAppData: getenv("LOCALAPPDATA"),
	}
	if goos == "windows" && e.Home == "" {
		e.Home = getenv("USERPROFILE")
	}
	return e
}

// DefaultPath returns where the decision log lives when nothing else is set:
//
//	Linux and other Unix: ${XDG_STATE_HOME:-~/.local/state}/ml-ai/decisions.db
//	macOS:                ~/Library/Application Support/ml-ai/decisions.db
//	Windows:              %LOCALAPPDATA%\ml-ai\decisions.db (else ~\AppData\Local\...)
//
// A relative $XDG_STATE_HOME is ignored, as the XDG spec says. It fails when
// the directory it needs (home, or %LOCALAPPDATA% on Windows) is unknown.
func DefaultPath(env Env) (string, error) {
	switch env.GOOS {
	case "windows":
		base := env.LocalAppData
		if base == "" {
			if env.Home == "" {
				return "", errors.New("cannot place the decision log: neither %LOCALAPPDATA% nor the home directory is known")
			}
			base = joinWin(env.Home, "AppData", "Local")
		}
		return joinWin(base, "ml-ai", "decisions.db"), nil
	case "darwin", "ios":
		if env.Home == "" {
			return "", errors.New("cannot place the decision log: the home directory is unknown")
		}
		return joinUnix(env.Home, "Library", "Application Support", "ml-ai", "decisions.db"), nil
	default:
		base := env.XDGStateHome
		if !strings.HasPrefix(base, "/") {
			if env.Home == "" {
				return "", errors.New("cannot place the decision log: neither $XDG_STATE_HOME nor the home directory is known")
			}
			base = joinUnix(env.Home, ".local", "state")
		}
		return joinUnix(base, "ml-ai", "decisions.db"), nil
	}
}

func joinUnix(base string, elem ...string) string {
	return strings.TrimRight(base, "/") + "/" + strings.Join(elem, "/")
}

func joinWin(base string, elem ...string) string {
	return strings.TrimRight(base, `\/`) + `\` + strings.Join(elem, `\`)
}
