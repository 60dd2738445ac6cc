package classifier

import (
	"net/netip"
	"slices"
	"strings"

	"github.com/ml-ai/command-safety/effects"
)

// A request to a loopback address that sends nothing, writes nothing and
// follows no redirect stays on the machine: it is a read (SPEC §3 judgment
// calls, issue 14 point 3). The table says which options keep a request
// local ([effects.Flag.Local]) and how the operands name requests
// ([effects.Request]); this file checks one invocation against that, as a
// closed world: anything it does not know keeps the request `network`.

// localRequest reports whether the invocation of e with args (the words
// after the program name) is a local read. It reads the invocation as the
// table's option parser left it ([invocation.option]): every option given
// must be a [effects.Flag.Local] one with a local value, no option the
// table does not know (or only abbreviates) may be among them, and the
// operands must be loopback requests.
func (inv *invocation) localRequest(e *effects.Program, args []field) bool {
	w := inv.w
	if e.Request == effects.NoRequest || w.requestEnv || inv.unknownOpts || !slices.Contains(inv.classes, effects.Network) {
		return false
	}
	for _, a := range args {
		if a.dynamic {
			return false // a value only known at run time may carry anything
		}
	}
	met := map[string]bool{}
	for _, h := range inv.flags {
		f := h.flag
		if !f.Local {
			return false
		}
		switch {
		case !takesValue(f.Value):
			if h.value != nil {
				return false // `--silent=x`
			}
		case h.value == nil || !localValue(f, h.value.value):
			return false
		}
		met[f.LocalNeed] = true
	}
	for _, f := range e.Flags {
		if f.LocalNeed != "" && !met[f.LocalNeed] {
			return false
		}
	}
	ops := make([]string, 0, len(inv.operands))
	for _, o := range inv.operands {
		if o.glob && strings.ContainsAny(authority(o.value), "*?[]") {
			return false // the shell may expand the host
		}
		ops = append(ops, o.value)
	}
	switch e.Request {
	case effects.URLRequests:
		for _, u := range ops {
			if !loopbackURL(u) {
				return false
			}
		}
		return len(ops) > 0
	case effects.ItemRequests:
		return localItems(ops)
	}
	return false
}

// localValue reports whether val, the value of the local flag f, keeps the
// request local: one of its LocalValues, or text that names no file (curl
// and HTTPie read `@FILE`; curl's `-w` writes `%output{FILE}`).
func localValue(f *effects.Flag, val string) bool {
	if len(f.LocalValues) > 0 {
		return slices.Contains(f.LocalValues, val)
	}
	return !strings.HasPrefix(val, "@") && !strings.Contains(val, "%output{")
}

// localItems reports whether HTTPie's or xh's operands, `[METHOD] URL
// [ITEM...]`, are a GET or HEAD to a loopback address with only headers and
// query parameters. Like HTTPie, a first operand of letters followed by
// another operand is the method.
func localItems(ops []string) bool {
	if len(ops) == 0 {
		return false
	}
	if len(ops) > 1 && isLetters(ops[0]) {
		if !strings.EqualFold(ops[0], "GET") && !strings.EqualFold(ops[0], "HEAD") {
			return false
		}
		ops = ops[1:]
	}
	u := ops[0]
	if rest, ok := strings.CutPrefix(u, ":"); ok {
		// `:3000/path`, `:/path`: localhost.
		port := rest
		if i := strings.IndexAny(rest, "/?#"); i >= 0 {
			port = rest[:i]
		}
		switch {
		case port == "":
			u = "localhost" + rest
		case validPort(port):
			u = "localhost" + u
		default:
			return false
		}
	}
	if !loopbackURL(u) {
		return false
	}
	for _, item := range ops[1:] {
		if !headerOrQuery(item) {
			return false
		}
	}
	return true
}

// headerOrQuery reports whether an HTTPie request item is a header
// (`Name:value`, `Name;`) or a query parameter (`name==value`): not a data
// field (`=`), JSON (`:=`) or file (`@`, `=@`, `:=@`), and no value read
// from a file (`Name:@file`, `name==@file`). Escapes are not taken apart.
func headerOrQuery(item string) bool {
	if strings.ContainsRune(item, '\\') {
		return false
	}
	i := strings.IndexAny(item, ":=@;")
	if i <= 0 {
		return false
	}
	rest := item[i:]
	switch {
	case strings.HasPrefix(rest, ":="), strings.HasPrefix(rest, "=@"), rest[0] == '@':
		return false
	case strings.HasPrefix(rest, "=="):
		return !strings.HasPrefix(rest[2:], "@")
	case rest[0] == ':':
		return !strings.HasPrefix(rest[1:], "@")
	case rest == ";":
		return true
	}
	return false // `name=value` is a data field: a body
}

// requestItemFiles records for §5.5 the files HTTPie's or xh's request
// items read: `field@file` (an upload), `field=@file`, `field:=@file`,
// `Header:@file`, `name==@file`, and a bare `@file` (the body).
func (inv *invocation) requestItemFiles() {
	for _, o := range inv.operands {
		if o.dynamic {
			continue
		}
		item := o.value
		i := strings.IndexAny(item, ":=@")
		if i < 0 {
			continue
		}
		rest := strings.TrimLeft(item[i:], ":=")
		if len(item[i:])-len(rest) > 2 || !strings.HasPrefix(rest, "@") {
			continue
		}
		if f := rest[1:]; f != "" {
			inv.w.noteRead(inv.at, f, nil)
		}
	}
}

// authority is the host part of a URL as typed ("" when there is none).
func authority(u string) string {
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
	}
	if i := strings.IndexAny(u, "/?#"); i >= 0 {
		u = u[:i]
	}
	return u
}

// loopbackURL reports whether u provably names a loopback address over
// HTTP: `http://` or `https://` (or no scheme, which curl, wget and HTTPie
// take as http), then `localhost`, a dotted-quad address in 127.0.0.0/8 or
// an IPv6 loopback address in brackets, an optional port, and a path. User
// info (`http://localhost@evil.example`), percent-encoding, backslashes,
// other spellings of an address (`0x7f.1`, `127.1`, `0177.0.0.1`),
// `localhost.`, and curl's globs (`{a,b}`, `[1-3]`) are not provable.
func loopbackURL(u string) bool {
	rest := u
	if i := strings.Index(u, "://"); i >= 0 {
		scheme := strings.ToLower(u[:i])
		if scheme != "http" && scheme != "https" {
			return false
		}
		rest = u[i+3:]
	} else if strings.Contains(u, ":/") || strings.HasPrefix(u, "/") {
		return false // `http:/x`, `/path`: not a URL of a host
	}
	auth, tail := rest, ""
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		auth, tail = rest[:i], rest[i:]
	}
	if strings.ContainsAny(tail, "{}[]\\") {
		return false
	}
	for i := 0; i < len(u); i++ {
		if c := u[i]; c <= ' ' || c >= 0x7f {
			return false
		}
	}
	if strings.ContainsAny(auth, "@%\\{}") {
		return false
	}
	host, port := auth, ""
	if strings.HasPrefix(auth, "[") {
		end := strings.IndexByte(auth, ']')
		if end < 0 {
			return false
		}
		host, port = auth[1:end], auth[end+1:]
		if port != "" {
			p, ok := strings.CutPrefix(port, ":")
			if !ok || !validPort(p) {
				return false
			}
		}
		a, err := netip.ParseAddr(host)
		return err == nil && a.Is6() && !a.Is4In6() && a.Zone() == "" && a.IsLoopback()
	}
	if i := strings.IndexByte(auth, ':'); i >= 0 {
		host, port = auth[:i], auth[i+1:]
		if !validPort(port) {
			return false
		}
	}
	return strings.EqualFold(host, "localhost") || loopbackQuad(host)
}

// validPort reports whether p is a port number, 1 to 5 digits up to 65535.
func validPort(p string) bool {
	if p == "" || len(p) > 5 {
		return false
	}
	n := 0
	for i := 0; i < len(p); i++ {
		if p[i] < '0' || p[i] > '9' {
			return false
		}
		n = n*10 + int(p[i]-'0')
	}
	return n <= 65535
}

// loopbackQuad reports whether h is four decimal octets without leading
// zeros (which some resolvers read as octal), the first 127.
func loopbackQuad(h string) bool {
	parts := strings.Split(h, ".")
	if len(parts) != 4 || parts[0] != "127" {
		return false
	}
	for _, p := range parts {
		if p == "" || len(p) > 3 || len(p) > 1 && p[0] == '0' {
			return false
		}
		n := 0
		for i := 0; i < len(p); i++ {
			if p[i] < '0' || p[i] > '9' {
				return false
			}
			n = n*10 + int(p[i]-'0')
		}
		if n > 255 {
			return false
		}
	}
	return true
}

// requestVar reports whether an environment variable moves an HTTP
// client's requests or configuration: proxies (`http_proxy`, `ALL_PROXY`,
// `no_proxy`), the files curl, wget and HTTPie read their options from
// (`CURL_HOME`, `HOME`, `XDG_CONFIG_HOME`, `WGETRC`, ...), and curl's TLS
// key log, a file it writes.
func requestVar(name string) bool {
	n := strings.ToLower(name)
	switch n {
	case "curl_home", "home", "xdg_config_home", "wgetrc", "system_wgetrc", "httpie_config_dir", "xh_config_dir", "sslkeylogfile":
		return true
	}
	return strings.HasSuffix(n, "_proxy")
}

func isLetters(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return s != ""
}
