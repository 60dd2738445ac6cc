package settings

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestUserFiles(t *testing.T) {
	linuxEd := func(base string) []string {
		return []string{
			base + "/Code/User/settings.json",
			base + "/Code - Insiders/User/settings.json",
			base + "/VSCodium/User/settings.json",
			base + "/Cursor/User/settings.json",
		}
	}
	winEd := func(base string) []string {
		return []string{
			base + `\Code\User\settings.json`,
			base + `\Code - Insiders\User\settings.json`,
			base + `\VSCodium\User\settings.json`,
			base + `\Cursor\User\settings.json`,
		}
	}
	cs := func(data string) string { return data + "/code-server/User/settings.json" }
	tests := []struct {
		name string
		env  Env
		want []string
	}{
		{"linux default", Env{GOOS: "linux", Home: "/home/u"},
			append(linuxEd("/home/u/.config"), cs("/home/u/.local/share"))},
		{"linux home with trailing slash", Env{GOOS: "linux", Home: "/home/u/"},
			append(linuxEd("/home/u/.config"), cs("/home/u/.local/share"))},
		{"linux XDG_CONFIG_HOME", Env{GOOS: "linux", Home: "/home/u", XDGConfigHome: "/cfg"},
			append(linuxEd("/cfg"), cs("/home/u/.local/share"))},
		{"linux XDG_CONFIG_HOME trailing slash", Env{GOOS: "linux", Home: "/home/u", XDGConfigHome: "/cfg/"},
			append(linuxEd("/cfg"), cs("/home/u/.local/share"))},
		{"linux relative XDG_CONFIG_HOME ignored", Env{GOOS: "linux", Home: "/home/u", XDGConfigHome: "cfg"},
			append(linuxEd("/home/u/.config"), cs("/home/u/.local/share"))},
		{"linux XDG_DATA_HOME for code-server", Env{GOOS: "linux", Home: "/home/u", XDGDataHome: "/data"},
			append(linuxEd("/home/u/.config"), cs("/data"))},
		{"linux relative XDG_DATA_HOME ignored", Env{GOOS: "linux", Home: "/home/u", XDGDataHome: "data"},
			append(linuxEd("/home/u/.config"), cs("/home/u/.local/share"))},
		{"linux both XDG, no home", Env{GOOS: "linux", XDGConfigHome: "/cfg", XDGDataHome: "/data"},
			append(linuxEd("/cfg"), cs("/data"))},
		{"linux nothing known", Env{GOOS: "linux"}, nil},
		{"freebsd like linux", Env{GOOS: "freebsd", Home: "/usr/home/u"},
			append(linuxEd("/usr/home/u/.config"), cs("/usr/home/u/.local/share"))},
		{"darwin default", Env{GOOS: "darwin", Home: "/Users/u"},
			append(linuxEd("/Users/u/Library/Application Support"), cs("/Users/u/.local/share"))},
		{"darwin ignores XDG_CONFIG_HOME for editors", Env{GOOS: "darwin", Home: "/Users/u", XDGConfigHome: "/cfg", XDGDataHome: "/data"},
			append(linuxEd("/Users/u/Library/Application Support"), cs("/data"))},
		{"darwin no home", Env{GOOS: "darwin"}, nil},
		{"windows APPDATA", Env{GOOS: "windows", Home: `C:\Users\u`, AppData: `C:\Users\u\AppData\Roaming`},
			winEd(`C:\Users\u\AppData\Roaming`)},
		{"windows APPDATA trailing backslash", Env{GOOS: "windows", AppData: `D:\Roam\`},
			winEd(`D:\Roam`)},
		{"windows APPDATA forward slashes", Env{GOOS: "windows", AppData: `D:/Roam`},
			winEd(`D:\Roam`)},
		{"windows UNC APPDATA", Env{GOOS: "windows", AppData: `\\srv\share\u`},
			winEd(`\\srv\share\u`)},
		{"windows no APPDATA: home fallback", Env{GOOS: "windows", Home: `C:\Users\u`},
			winEd(`C:\Users\u\AppData\Roaming`)},
		{"windows relative APPDATA: home fallback", Env{GOOS: "windows", Home: `C:\Users\u`, AppData: `Roaming`},
			winEd(`C:\Users\u\AppData\Roaming`)},
		{"windows nothing known", Env{GOOS: "windows"}, nil},
		{"windows ignores XDG", Env{GOOS: "windows", AppData: `C:\R`, XDGConfigHome: "/cfg", XDGDataHome: "/data"},
			winEd(`C:\R`)},
	}
	seen := map[string]bool{}
	for _, tt := range tests {
		if seen[tt.name] {
			t.Fatalf("duplicate case %q", tt.name)
		}
		seen[tt.name] = true
		t.Run(tt.name, func(t *testing.T) {
			got := UserFiles(tt.env)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("UserFiles(%+v) (-want +got):\n%s", tt.env, diff)
			}
		})
	}
}

func TestWorkspaceFile(t *testing.T) {
	tests := []struct {
		goos, root, want string
	}{
		{"linux", "/src/app", "/src/app/.vscode/settings.json"},
		{"linux", "/src/app/", "/src/app/.vscode/settings.json"},
		{"linux", "/", "/.vscode/settings.json"},
		{"darwin", "/Users/u/app", "/Users/u/app/.vscode/settings.json"},
		{"windows", `C:\src\app`, `C:\src\app\.vscode\settings.json`},
		{"windows", `C:\`, `C:\.vscode\settings.json`},
		{"windows", `C:/src/app`, `C:\src\app\.vscode\settings.json`},
	}
	for _, tt := range tests {
		t.Run(tt.goos+" "+tt.root, func(t *testing.T) {
			if got := WorkspaceFile(Env{GOOS: tt.goos}, tt.root); got != tt.want {
				t.Errorf("WorkspaceFile(%s, %q) = %q, want %q", tt.goos, tt.root, got, tt.want)
			}
		})
	}
}

func TestEnvFrom(t *testing.T) {
	vars := map[string]string{
		"HOME": "/home/u", "XDG_CONFIG_HOME": "/cfg", "XDG_DATA_HOME": "/data",
		"APPDATA": `C:\R`, "USERPROFILE": `C:\Users\u`,
	}
	getenv := func(k string) string { return vars[k] }
	got := EnvFrom("linux", getenv)
	want := Env{GOOS: "linux", Home: "/home/u", XDGConfigHome: "/cfg", XDGDataHome: "/data", AppData: `C:\R`}
	if got != want {
		t.Errorf("EnvFrom(linux) = %+v, want %+v", got, want)
	}
	delete(vars, "HOME")
	if got := EnvFrom("windows", getenv); got.Home != `C:\Users\u` {
		t.Errorf("EnvFrom(windows) without HOME: Home = %q, want USERPROFILE", got.Home)
	}
	if got := EnvFrom("linux", getenv); got.Home != "" {
		t.Errorf("EnvFrom(linux) without HOME: Home = %q, want empty (USERPROFILE is Windows only)", got.Home)
	}
}
