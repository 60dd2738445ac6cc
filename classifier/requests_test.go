package classifier

import "testing"

// TestLoopbackURL checks which URLs provably name a loopback address: every
// spelling that a client could send elsewhere is not loopback.
func TestLoopbackURL(t *testing.T) {
	for u, want := range map[string]bool{
		"http://localhost:3000/api/health": true, "https://localhost": true, "localhost:3000": true, "localhost": true,
		"http://LOCALHOST:8080/": true, "http://127.0.0.1:8080/x?y=1": true, "127.0.0.1": true, "http://127.255.0.3/": true,
		"http://[::1]:5173/": true, "http://[0:0:0:0:0:0:0:1]/": true, "http://localhost/#frag": true, "http://localhost?x": true,
		"HTTP://localhost/": true,
		// Not provably loopback.
		"http://localhost@evil.example/": false, "http://user:pw@localhost/": false, "http://127.0.0.1.evil.example/": false,
		"http://0x7f.1/": false, "http://0x7f000001/": false, "http://2130706433/": false, "http://127.1/": false,
		"http://0177.0.0.1/": false, "http://127.0.0.01/": false, "http://127.0.0.256/": false, "http://localhost./": false,
		"http://foo.localhost/": false, "http://[::ffff:127.0.0.1]/": false, "http://[::1%25eth0]/": false, "http://[fe80::1]/": false,
		"http://[::1]x/": false, "http://[::1/": false, "http://%6c%6fcalhost/": false, "http://localhost\\@evil.example/": false,
		"http://evil.example\\@localhost/": false, "http://{localhost,evil.example}/": false, "http://localhost/[1-9]": false,
		"http://localhost:/": false, "http://localhost:99999/": false, "http://localhost:3000:4000/": false, "ftp://localhost/": false,
		"file:///etc/passwd": false, "http:/localhost/": false, "//localhost/": false, "/etc/passwd": false, "": false,
		"http://::1/": false, "http://10.0.0.1/": false, "http://0.0.0.0:3000/": false, "http://localhost /": false,
		"http://loca\u200blhost/": false, "http://[::1]:/": false, "evil.example": false, "http://localhost.evil.example/": false,
	} {
		if got := loopbackURL(u); got != want {
			t.Errorf("loopbackURL(%q) = %v, want %v", u, got, want)
		}
	}
}

// TestLocalItems checks HTTPie's and xh's operands: a GET or HEAD with only
// headers and query parameters.
func TestLocalItems(t *testing.T) {
	for ops, want := range map[string]bool{
		":3000/api": true, "GET :3000/api": true, "head localhost:8080": true, ":3000 Accept:application/json q==1": true,
		":/x": true, ": X-Empty;": true, "localhost:3000": true,
		"POST :3000": false, "localhost X-A:1": false, ":3000 name=x": false, ":3000 n:=1": false, ":3000 f@a.txt": false,
		":3000 n=@a.txt": false, ":3000 H:@a.txt": false, ":3000 q==@a.txt": false, ":3000 a\\:b=c": false, ":x/": false,
		"evil.example": false, "": false, ":3000 plain": false,
	} {
		var args []string
		if ops != "" {
			args = splitSpace(ops)
		}
		if got := localItems(args); got != want {
			t.Errorf("localItems(%q) = %v, want %v", ops, got, want)
		}
	}
}

func splitSpace(s string) []string {
	var out []string
	cur := ""
	for _, r := range s {
		if r == ' ' {
			out = append(out, cur)
			cur = ""
			continue
		}
		cur += string(r)
	}
	return append(out, cur)
}
