package classifier

import "testing"

// TestWinPath checks how a path a command names under Git Bash becomes the
// classifier's spelling, and which paths cannot be placed.
func TestWinPath(t *testing.T) {
	const home = "/c/Users/me"
	for in, want := range map[string]string{
		`C:\Users\me\ws`: "/c/Users/me/ws", `C:/Users/me/ws`: "/c/Users/me/ws", `c:\`: "/c/", `C:`: "!", `C:x`: "!",
		`d:/data/x.txt`: "/d/data/x.txt", `/c/Code/app`: "/c/Code/app", `/c`: "/c", `/C/Code`: "!",
		`\\server\share\x`: "/unc/server/share/x", `//server/share`: "/unc/server/share", `\\server`: "!", `\\?\C:\x`: "!", `\\.\pipe\x`: "!",
		`%USERPROFILE%\.ssh\id_rsa`: "/c/Users/me/.ssh/id_rsa", `%userprofile%/x`: "/c/Users/me/x", `%APPDATA%\x`: "!",
		`%USERPROFILE%\%TEMP%`: "!", `100%.txt`: "100%.txt", `/tmp/x`: "!", `/usr/bin`: "!", `/`: "!", `/home/me`: "!",
		`src\a.txt`: "src/a.txt", `..\..\x`: "../../x", `a`: "a", `C:\Users\me.`: "!", `C:\Windows \x`: "!", `C:\PROGRA~1\x`: "!",
		`C:\Users\me\backup~old`: `/c/Users/me/backup~old`, `/unc/server/share`: "!", "": "",
	} {
		got, ok := winPath(in, home)
		if !ok {
			got = "!"
		}
		if got != want {
			t.Errorf("winPath(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestWindowsSystem checks the system paths of Windows in the classifier's
// spelling.
func TestWindowsSystem(t *testing.T) {
	for p, want := range map[string]bool{
		"/c": true, "/d": true, "/c/Windows": true, "/c/WINDOWS/System32/drivers/etc/hosts": true, "/c/Program Files": true,
		"/c/Program Files (x86)/x": true, "/c/ProgramData/x": true, "/d/windows": true, "/unc": true, "/unc/server": true,
		"/c/x.txt": true, "/c/Users": true, "/c/tools": true,
		"/c/Users/me": false, "/c/tools/x": false, "/unc/server/share": false, "/unc/server/share/x": false, "/c/Windowsx/y": false,
	} {
		if got := windowsSystem(p); got != want {
			t.Errorf("windowsSystem(%q) = %v, want %v", p, got, want)
		}
	}
}

// TestPlatformOf checks the GOOS names.
func TestPlatformOf(t *testing.T) {
	for goos, want := range map[string]Platform{"windows": Windows, "darwin": Darwin, "ios": Darwin, "linux": Linux, "freebsd": Linux, "": Linux} {
		if got := PlatformOf(goos); got != want {
			t.Errorf("PlatformOf(%q) = %v, want %v", goos, got, want)
		}
	}
}
