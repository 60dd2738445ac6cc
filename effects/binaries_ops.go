//go:build tablesrc

package effects

import "strings"

// dockerRunFlags are the value-taking options of docker run and create
// (Docker CLI 28); SpecialDocker reads --privileged, -v, --mount, --pid,
// --ipc, --userns and --cap-add from the parsed invocation.
var dockerRunFlags = fl(
	bools("--privileged", "-i", "--interactive", "-t", "--tty", "-d", "--detach", "--rm", "-P", "--publish-all", "--init", "--read-only", "-q", "--quiet"),
	arg("-v", "--volume", "--mount", "-e", "--env", "-p", "--publish", "-w", "--workdir", "--name", "--network", "--net", "-u", "--user",
		"--entrypoint", "--platform", "-l", "--label", "--cap-add", "--cap-drop", "--device", "--pid", "--ipc", "--userns", "--security-opt",
		"--gpus", "-m", "--memory", "--cpus", "--restart", "-h", "--hostname", "--add-host", "--dns", "--log-driver", "--log-opt", "--tmpfs",
		"--ulimit", "--health-cmd", "--shm-size", "--pull", "--volumes-from", "--link", "--expose", "--stop-signal", "--stop-timeout", "--runtime",
		"--group-add", "--cgroupns", "--uts", "--annotation", "-a", "--attach", "--ip", "--mac-address", "--network-alias"),
	rpath("--env-file", "--label-file"), wpath("--cidfile"),
)

// dockerBuildFlags are the value-taking options of docker build and buildx build.
var dockerBuildFlags = fl(
	rpath("-f", "--file"),
	arg("-t", "--tag", "--build-arg", "--target", "--platform", "--secret", "--ssh", "--cache-from", "--cache-to", "--label", "--network",
		"--progress", "--build-context", "--add-host", "--shm-size", "--ulimit", "--allow", "--attest", "--provenance", "--sbom", "--builder"),
	wpath("-o", "--output", "--metadata-file", "--iidfile"),
)

// dockerLike is docker or podman: the CLIs agree on the commands agents use.
// The helpers take the command line so far, for the examples.
func dockerLike(name string) Program {
	d := name
	run := func(at, n string) Program {
		return Program{Name: n, Effects: fx(SystemChange, Network), Special: SpecialDocker, Flags: dockerRunFlags,
			Why:      d + " " + n + " starts a container, pulling its image when it is absent",
			Examples: ex(at + " " + n + " --rm alpine echo hi")}
	}
	del := func(at, n, what string) Program {
		return Program{Name: n, Effects: fx(Deletion), Outside: true, Why: d + " " + n + " deletes " + what,
			Flags: fl(arg("--filter")), Examples: ex(at + " " + n + " x")}
	}
	prune := func(at, what string) Program {
		return Program{Name: "prune", Effects: fx(Deletion), Outside: true, Why: d + " prune deletes unused " + what,
			Flags: fl(arg("--filter")), Examples: ex(at + " prune -f")}
	}
	change := func(at, n, why string) Program {
		return Program{Name: n, Effects: fx(SystemChange), Why: d + " " + n + " " + why, Examples: ex(at + " " + n + " web")}
	}
	read := func(at, n string) Program {
		// The read commands' options (ps, images, logs, inspect, ls,
		// stats, top, ...), one list for all: each takes no more than
		// it prints.
		return Program{Name: n, Effects: fx(Read), Flags: fl(arg("-f", "--format", "--filter", "-n", "--tail", "--since", "--until", "--type", "--platform"),
			bools("-a", "--all", "-q", "--quiet", "-s", "--size", "--no-trunc", "-l", "--latest", "--digests", "-t", "--timestamps", "--details",
				"--follow", "--tree", "--no-stream", "--no-color", "--human", "-H", "--json", "--services", "--volumes", "--orphans", "--resolve-image-mode")),
			Examples: ex(at + " " + n)}
	}
	build := func(at string) Program {
		return Program{Name: "build", Effects: fx(OpaqueLow, Network), Flags: dockerBuildFlags,
			Why:      d + " build runs the Dockerfile's steps and pulls base images",
			Examples: ex(at+" build -t app .", at+" build -f docker/Dockerfile --build-arg X=1 ."), NotExamples: ex(at + " build -o /tmp/out .")}
	}
	pull := func(at string) Program {
		return Program{Name: "pull", Effects: fx(Network), Why: d + " pull downloads an image", Flags: fl(arg("--platform")), Examples: ex(at + " pull alpine:3")}
	}
	push := func(at string) Program {
		return Program{Name: "push", Effects: fx(Network), Why: d + " push uploads an image", Examples: ex(at + " push registry.example.com/app:1")}
	}
	c := d + " compose"
	return Program{Name: name, Env: dockerEnv, Effects: fx(Read), Other: fx(SystemChange, Network, OpaqueMedium),
		Flags: fl(arg("-l", "--log-level", "--remote"), dir("--config"), rpath("--tlscacert", "--tlscert", "--tlskey"),
			// The daemon the client talks to: another machine, or one a
			// context names (docker -H ssh://host ps lists its containers).
			Flag{Names: names("-H", "--host", "-c", "--context", "--url", "--connection"), Value: Arg, Effects: fx(Network),
				Why: d + " -H talks to another daemon", Examples: ex(name + " -H ssh://host ps")}),
		Subcommands: []Program{
			change(d, "attach", "attaches to a running container"),
			build(d),
			{Name: "builder", Effects: fx(Read), Other: fx(SystemChange), Subcommands: []Program{read(d+" builder", "ls"), prune(d+" builder", "build cache")}, Examples: ex(d + " builder")},
			{Name: "buildx", Effects: fx(Read), Other: fx(SystemChange, Network),
				Subcommands: []Program{
					{Name: "bake", Effects: fx(OpaqueLow, Network), Why: d + " buildx bake runs the build definitions", Flags: fl(rpath("-f", "--file"), arg("--set")), Examples: ex(d + " buildx bake")},
					{Name: "build", Effects: fx(OpaqueLow, Network), Flags: dockerBuildFlags, Why: d + " buildx build runs the Dockerfile's steps and pulls base images",
						Examples: ex(d + " buildx build --platform linux/amd64 -t app .")},
					read(d+" buildx", "du"), read(d+" buildx", "inspect"), read(d+" buildx", "ls"), prune(d+" buildx", "build cache"), read(d+" buildx", "version"),
				},
				Examples: ex(d + " buildx")},
			{Name: "commit", Effects: fx(SystemChange), Why: d + " commit writes a new image", Examples: ex(d + " commit web app:snap")},
			{Name: "compose", Effects: fx(Read), Other: fx(SystemChange, Network, OpaqueLow),
				Flags: fl(code("-f", "--file"), rpath("--env-file"), arg("-p", "--project-name", "--profile", "--progress", "--ansi"), dir("--project-directory")),
				Subcommands: []Program{
					{Name: "build", Effects: fx(OpaqueLow, Network), Why: d + " compose build runs the Dockerfiles' steps", Examples: ex(c + " build")},
					read(c, "config"),
					{Name: "down", Effects: fx(SystemChange), Why: d + " compose down stops and removes the project's containers",
						Flags: fl(Flag{Names: names("-v", "--volumes", "--rmi"), Value: NoValue, Effects: fx(Deletion), Outside: true,
							Why: d + " compose down -v deletes the project's volumes", Examples: ex(c + " down -v")}),
						Examples: ex(c + " down")},
					{Name: "exec", Effects: fx(SystemChange), Operands: Command, Skip: 1, Elsewhere: true, Special: SpecialDocker, Why: d + " compose exec runs a command in a service container",
						Flags: fl(bools("--privileged"), arg("-e", "--env", "-u", "--user", "-w", "--workdir", "--index")), Examples: ex(c + " exec web ls")},
					read(c, "images"),
					change(c, "kill", "stops the project's containers"),
					read(c, "logs"),
					read(c, "ls"),
					change(c, "pause", "pauses the project's containers"),
					read(c, "port"),
					read(c, "ps"),
					{Name: "pull", Effects: fx(Network), Why: d + " compose pull downloads the project's images", Examples: ex(c + " pull")},
					{Name: "push", Effects: fx(Network), Why: d + " compose push uploads the project's images", Examples: ex(c + " push")},
					change(c, "restart", "restarts the project's containers"),
					{Name: "rm", Effects: fx(Deletion), Outside: true, Why: d + " compose rm deletes the project's stopped containers", Examples: ex(c + " rm -f")},
					{Name: "run", Effects: fx(SystemChange, Network), Special: SpecialDocker, Flags: dockerRunFlags, Why: d + " compose run starts a one-off container", Examples: ex(c + " run --rm web echo hi"), NotExamples: ex(c + " run --privileged web sh")},
					change(c, "start", "starts the project's containers"),
					change(c, "stop", "stops the project's containers"),
					read(c, "top"),
					change(c, "unpause", "resumes the project's containers"),
					{Name: "up", Effects: fx(SystemChange, Network, OpaqueLow), Why: d + " compose up builds, pulls and starts the project's containers", Examples: ex(c+" up -d", c+" up --build")},
					read(c, "version"),
				},
				Examples: ex(c)},
			{Name: "container", Effects: fx(Read), Other: fx(SystemChange),
				Subcommands: []Program{read(d+" container", "inspect"), read(d+" container", "logs"), read(d+" container", "ls"), prune(d+" container", "containers"),
					del(d+" container", "rm", "containers"), run(d+" container", "run"), change(d+" container", "stop", "stops a container")},
				Examples: ex(d + " container")},
			{Name: "context", Effects: fx(Read), Other: fx(WriteOutside),
				Subcommands: []Program{read(d+" context", "inspect"), read(d+" context", "ls"), read(d+" context", "show"),
					{Name: "use", Effects: fx(WriteOutside), HomeWrite: "~/.docker/config.json", Why: d + " context use changes the CLI's configuration", Examples: ex(d + " context use remote")}},
				Examples: ex(d + " context")},
			{Name: "cp", Effects: fx(SystemChange, WriteInside), Operands: CopyPaths, Why: d + " cp copies files between a container and the machine",
				Examples: ex(d + " cp web:/app/log.txt log.txt")},
			run(d, "create"),
			read(d, "diff"),
			read(d, "events"),
			{Name: "exec", Effects: fx(SystemChange), Operands: Command, Skip: 1, Elsewhere: true, Special: SpecialDocker, Why: d + " exec runs a command in a container",
				Flags: fl(bools("--privileged"), arg("-e", "--env", "-u", "--user", "-w", "--workdir", "--detach-keys"), rpath("--env-file")), Examples: ex(d+" exec web ls", d+" exec -it -u app web ls"),
				NotExamples: ex(d + " exec --privileged web sh")},
			{Name: "export", Aliases: names("save"), Effects: fx(Read), Flags: fl(wpath("-o", "--output")), Examples: ex(d + " save app:1"), NotExamples: ex(d + " save -o app.tar app:1")},
			read(d, "history"),
			{Name: "image", Effects: fx(Read), Other: fx(SystemChange),
				Subcommands: []Program{build(d + " image"), read(d+" image", "history"), read(d+" image", "inspect"), read(d+" image", "ls"), prune(d+" image", "images"),
					pull(d + " image"), push(d + " image"), del(d+" image", "rm", "images")},
				Examples: ex(d + " image")},
			read(d, "images"),
			{Name: "import", Aliases: names("load"), Effects: fx(SystemChange), Why: d + " load adds images to the machine", Flags: fl(rpath("-i", "--input")), Examples: ex(d + " load -i app.tar")},
			read(d, "info"),
			read(d, "inspect"),
			change(d, "kill", "stops a container"),
			{Name: "login", Effects: fx(Network, WriteOutside), HomeWrite: "~/.docker/config.json", Why: d + " login stores registry credentials in the home directory", Flags: fl(arg("-u", "--username", "-p", "--password")),
				Examples: ex(d + " login registry.example.com")},
			{Name: "logout", Effects: fx(WriteOutside), HomeWrite: "~/.docker/config.json", Why: d + " logout removes stored registry credentials", Examples: ex(d + " logout")},
			read(d, "logs"),
			{Name: "network", Effects: fx(Read), Other: fx(SystemChange),
				Subcommands: []Program{read(d+" network", "inspect"), read(d+" network", "ls"), prune(d+" network", "networks"), del(d+" network", "rm", "networks")},
				Examples:    ex(d + " network")},
			change(d, "pause", "pauses a container"),
			read(d, "port"),
			read(d, "ps"),
			pull(d),
			push(d),
			change(d, "rename", "renames a container"),
			change(d, "restart", "restarts a container"),
			del(d, "rm", "containers"),
			del(d, "rmi", "images"),
			run(d, "run"),
			{Name: "search", Effects: fx(Network), Why: d + " search asks the registry", Examples: ex(d + " search alpine")},
			change(d, "start", "starts a container"),
			read(d, "stats"),
			change(d, "stop", "stops a container"),
			{Name: "system", Effects: fx(Read), Other: fx(SystemChange),
				Subcommands: []Program{read(d+" system", "df"), read(d+" system", "events"), read(d+" system", "info"), prune(d+" system", "containers, images, networks and volumes"),
					// podman system reset deletes every container, image, volume and the storage itself.
					{Name: "reset", Effects: fx(Deletion), Outside: true, Why: d + " system reset deletes all containers, images, volumes and storage", Examples: ex(d + " system reset -f")}},
				Examples: ex(d + " system")},
			{Name: "tag", Effects: fx(SystemChange), Why: d + " tag names an image", Examples: ex(d + " tag app:1 app:latest")},
			read(d, "top"),
			change(d, "unpause", "resumes a container"),
			change(d, "update", "changes a container's limits"),
			read(d, "version"),
			{Name: "volume", Effects: fx(Read), Other: fx(SystemChange),
				Subcommands: []Program{
					{Name: "create", Effects: fx(SystemChange), Why: d + " volume create makes a volume", Examples: ex(d + " volume create data")},
					read(d+" volume", "inspect"), read(d+" volume", "ls"), prune(d+" volume", "volumes"), del(d+" volume", "rm", "volumes"),
				},
				Examples: ex(d + " volume")},
			read(d, "wait"),
		},
		Examples: ex(name+" --version", name+" --log-level debug ps"), NotExamples: ex(name+" run --privileged alpine", name+" -H ssh://host ps")}
}

// kubectlFlags are kubectl 1.3x's options that take a value, global or of
// the commands agents use; they may come anywhere on the line.
var kubectlFlags = fl(
	arg("-n", "--namespace", "--context", "--cluster", "--user", "-s", "--server", "--token", "--as", "--as-group", "--as-uid", "-l", "--selector",
		"-o", "--output", "-c", "--container", "--field-selector", "--sort-by", "--tail", "--since", "--since-time", "--request-timeout", "-L",
		"--label-columns", "--template", "--type", "-p", "--patch", "--replicas", "--image", "--port", "--timeout", "--for", "--grace-period",
		"--cache-dir", "-v", "--v", "--subresource", "--field-manager", "--chunk-size", "--overrides", "--env", "--limits", "--requests", "--max-unavailable",
		"--pod-running-timeout", "--target"),
	optArg("--dry-run", "--cascade", "--show-managed-fields", "--all-containers", "--prefix", "--server-side", "--validate"),
	rpath("--kubeconfig", "--certificate-authority", "--client-certificate", "--client-key", "-f", "--filename", "-k", "--kustomize"),
)

// dockerCompose is the Compose v1 binary, `docker-compose`: the commands
// of `docker compose`, so that `docker-compose down -v` deletes the volumes
// as `docker compose down -v` does.
func dockerCompose() Program {
	d := dockerLike("docker")
	p := renamed(*d.Sub("compose"), "docker compose", "docker-compose")
	p.Name = "docker-compose"
	return p
}

// renamed deep-copies p with the examples and reasons spelled with prefix
// to instead of from (an entry that is another program's subcommand).
func renamed(p Program, from, to string) Program {
	fix := func(xs []string) []string {
		out := make([]string, len(xs))
		for i, x := range xs {
			out[i] = strings.Replace(x, from, to, 1)
		}
		return out
	}
	why := func(s string) string {
		if s = strings.Replace(s, from, to, 1); !strings.Contains(s, to) {
			// `docker kill stops the project's containers`
			s = strings.Replace(s, strings.Fields(from)[0]+" ", to+" ", 1)
		}
		return s
	}
	p.Examples, p.NotExamples, p.Why = fix(p.Examples), fix(p.NotExamples), why(p.Why)
	p.Flags = append([]Flag(nil), p.Flags...)
	for i := range p.Flags {
		p.Flags[i].Examples, p.Flags[i].Why = fix(p.Flags[i].Examples), why(p.Flags[i].Why)
	}
	subs := make([]Program, len(p.Subcommands))
	for i, s := range p.Subcommands {
		subs[i] = renamed(s, from, to)
	}
	p.Subcommands = subs
	return p
}

// containerPrograms are container engines and orchestrators.
var containerPrograms = []Program{
	dockerLike("docker"),
	dockerCompose(),
	inherit(Program{Name: "helm", Effects: fx(Read), Other: fx(SystemChange, Network),
		Flags: fl(arg("-n", "--namespace", "--kube-context", "--set", "--set-string", "--set-json", "--version", "--repo", "-o", "--output", "--timeout",
			"--registry-config", "--repository-config", "--repository-cache", "--kube-apiserver", "--kube-token", "--burst-limit"),
			rpath("--kubeconfig", "-f", "--values", "--set-file", "--ca-file", "--cert-file", "--key-file"),
			wpath("--output-dir", "-d", "--destination"), prog("--post-renderer")),
		Subcommands: []Program{
			{Name: "create", Effects: fx(WriteInside), Why: "helm create writes a new chart", Examples: ex("helm create chart")},
			{Name: "delete", Aliases: names("del", "un", "uninstall"), Effects: fx(Deletion, Network), Outside: true, Why: "helm uninstall deletes a release from the cluster",
				Examples: ex("helm uninstall web")},
			{Name: "dependency", Aliases: names("dep"), Effects: fx(Network, WriteInside), Why: "helm dependency downloads charts", Other: fx(Network, WriteInside),
				Subcommands: []Program{rsub("list", "helm dep list chart")}, Examples: ex("helm dependency update chart")},
			rsub("env", "helm env"),
			{Name: "get", Aliases: names("history", "list", "ls", "status"), Effects: fx(Network), Why: "helm get asks the cluster", Examples: ex("helm list -A", "helm status web")},
			{Name: "install", Aliases: names("rollback", "upgrade"), Effects: fx(SystemChange, Network), Why: "helm install changes what runs on the cluster",
				Examples: ex("helm install web ./chart", "helm upgrade --install web ./chart -f values.yaml")},
			{Name: "lint", Effects: fx(Verify), Examples: ex("helm lint chart")},
			{Name: "package", Effects: fx(WriteInside), Why: "helm package writes a chart archive", Examples: ex("helm package chart")},
			{Name: "plugin", Effects: fx(Read), Other: fx(Network, WriteOutside, OpaqueMedium), Subcommands: []Program{rsub("list", "helm plugin list")}, Examples: ex("helm plugin")},
			{Name: "pull", Aliases: names("fetch"), Effects: fx(Network, WriteInside), Why: "helm pull downloads a chart", Examples: ex("helm pull bitnami/nginx")},
			sub("push", fx(Network), "helm push uploads a chart", "helm push chart.tgz oci://r.example/charts"),
			{Name: "repo", Effects: fx(Read), Other: fx(Network, WriteOutside),
				Subcommands: []Program{
					{Name: "add", Effects: fx(Network, WriteOutside), HomeWrite: "~/.config/helm/repositories.yaml", Why: "helm repo add changes helm's repository list", Examples: ex("helm repo add bitnami https://charts.bitnami.com/bitnami")},
					rsub("list", "helm repo list"),
					{Name: "remove", Effects: fx(WriteOutside), HomeWrite: "~/.config/helm/repositories.yaml", Why: "helm repo remove changes helm's repository list", Examples: ex("helm repo remove bitnami")},
					sub("update", fx(Network, WriteOutside), "helm repo update downloads repository indexes", "helm repo update"),
				},
				Examples: ex("helm repo")},
			{Name: "search", Aliases: names("show"), Effects: fx(Network), Why: "helm search asks chart repositories", Examples: ex("helm search repo nginx", "helm show values bitnami/nginx")},
			{Name: "template", Effects: fx(Read), Examples: ex("helm template web ./chart")},
			{Name: "test", Effects: fx(SystemChange, Network), Why: "helm test runs test pods on the cluster", Examples: ex("helm test web")},
			rsub("version", "helm version"),
		},
		Examples: ex("helm --help")}),
	withFlags(Program{Name: "kubectl", Aliases: names("oc"), Env: kubectlEnv, Effects: fx(Read), Other: fx(SystemChange, Network, OpaqueMedium),
		Subcommands: []Program{
			{Name: "annotate", Aliases: names("apply", "autoscale", "create", "edit", "expose", "label", "patch", "replace", "scale", "set", "taint"),
				Effects: fx(SystemChange, Network), Why: "kubectl apply changes resources on the cluster",
				// Files whose contents go to the cluster (`create secret --from-file`).
				Flags:    fl(rpath("--from-file", "--from-env-file")),
				Examples: ex("kubectl apply -f deploy.yaml", "kubectl scale deploy/web --replicas 3", "kubectl -n prod label pod x a=b")},
			{Name: "api-resources", Aliases: names("api-versions", "cluster-info", "describe", "events", "explain", "get", "logs", "top", "wait"),
				Effects: fx(Network), Why: "kubectl get asks the cluster",
				Examples: ex("kubectl get pods -A", "kubectl -n prod describe deploy web", "kubectl logs -f web-1 -c app", "kubectl get pods -o wide -l app=web")},
			{Name: "attach", Aliases: names("debug", "run"), Effects: fx(SystemChange, Network), Why: "kubectl run starts or attaches to pods on the cluster",
				Examples: ex("kubectl run tmp --image=busybox --rm -it")},
			{Name: "auth", Effects: fx(Network), Why: "kubectl auth asks the cluster", Examples: ex("kubectl auth can-i create pods")},
			{Name: "certificate", Aliases: names("cordon", "drain", "uncordon"), Effects: fx(SystemChange, Network), Why: "kubectl drain changes nodes of the cluster",
				Examples: ex("kubectl drain node-1 --ignore-daemonsets")},
			{Name: "config", Effects: fx(Read), Other: fx(WriteOutside),
				Subcommands: []Program{
					rsub("current-context", "kubectl config current-context"),
					{Name: "delete-cluster", Aliases: names("delete-context", "delete-user", "rename-context", "set", "set-cluster", "set-context", "set-credentials", "unset", "use", "use-context"),
						Effects: fx(WriteOutside), HomeWrite: "~/.kube/config", Why: "kubectl config use-context changes ~/.kube/config", Examples: ex("kubectl config use-context prod")},
					rsub("get-clusters", "kubectl config get-clusters"),
					rsub("get-contexts", "kubectl config get-contexts"),
					rsub("get-users", "kubectl config get-users"),
					secret(rsub("view", "kubectl config view --minify")),
				},
				Examples: ex("kubectl config")},
			{Name: "cp", Effects: fx(Network, WriteInside), Operands: CopyPaths, Why: "kubectl cp copies files between a pod and the machine",
				Examples: ex("kubectl cp web-1:/app/log.txt log.txt")},
			{Name: "delete", Effects: fx(Deletion, Network), Outside: true, Why: "kubectl delete deletes resources from the cluster",
				Examples: ex("kubectl delete pod web-1", "kubectl delete -f deploy.yaml", "kubectl --validate delete ns prod")},
			{Name: "diff", Effects: fx(Network), Why: "kubectl diff compares with the cluster", Examples: ex("kubectl diff -f deploy.yaml")},
			{Name: "exec", Effects: fx(Network), Special: SpecialKubectlExec, Why: "kubectl exec runs a command in a pod",
				Examples: ex("kubectl exec web-1 -- ls /app", "kubectl exec -it web-1 -c app -- cat /etc/hosts"), NotExamples: ex("kubectl exec web-1 -- rm -rf /data")},
			rsub("kustomize", "kubectl kustomize overlays/prod"),
			{Name: "plugin", Effects: fx(Read), Examples: ex("kubectl plugin list")},
			{Name: "port-forward", Aliases: names("proxy"), Effects: fx(Network), Why: "kubectl port-forward opens a tunnel to the cluster", Examples: ex("kubectl port-forward svc/web 8080:80")},
			{Name: "rollout", Effects: fx(SystemChange, Network), Why: "kubectl rollout restarts or undoes deployments", Other: fx(SystemChange, Network),
				Subcommands: []Program{sub("history", fx(Network), "kubectl rollout history asks the cluster", "kubectl rollout history deploy/web"),
					sub("status", fx(Network), "kubectl rollout status asks the cluster", "kubectl rollout status deploy/web")},
				Examples: ex("kubectl rollout restart deploy/web")},
			{Name: "version", Effects: fx(Network), Why: "kubectl version asks the cluster for its version",
				Flags:    fl(Flag{Names: names("--client"), Replace: true, Effects: fx(Read), Examples: ex("kubectl version --client", "kubectl version --client -o json")}),
				Examples: ex("kubectl version")},
		},
		Examples: ex("kubectl", "kubectl --help")}, kubectlFlags),
	{Name: "minikube", Aliases: names("k3d", "kind"), Effects: fx(SystemChange, Network), Why: "kind creates and deletes local clusters", Examples: ex("kind create cluster", "minikube start")},
	dockerLike("podman"),
}

// cloudPrograms are the cloud and infrastructure CLIs. Their commands are
// many and name resources remotely, so they are network and system-change
// unless a subcommand is known to only read.
var cloudPrograms = []Program{
	withFlags(Program{Name: "aws", Effects: fx(Read), Other: fx(Network, SystemChange), DeleteVerbs: names("delete-*", "terminate-*", "deregister-*", "purge-*"),
		Subcommands: []Program{
			{Name: "configure", Effects: fx(WriteOutside), HomeWrite: "~/.aws/credentials", Why: "aws configure writes ~/.aws/credentials", Other: fx(WriteOutside),
				Subcommands: []Program{secret(rsub("export-credentials", "aws configure export-credentials")), secret(rsub("get", "aws configure get region")), rsub("list", "aws configure list"), rsub("list-profiles", "aws configure list-profiles")},
				Examples:    ex("aws configure")},
			{Name: "s3", Effects: fx(Network), Why: "aws s3 talks to S3", Other: fx(Network, SystemChange),
				Subcommands: []Program{
					{Name: "cp", Aliases: names("sync"), Effects: fx(Network, SystemChange, WriteInside), Operands: CopyPaths, Why: "aws s3 cp copies between S3 and the machine",
						Flags:    fl(Flag{Names: names("--delete"), Effects: fx(Deletion), Outside: true, Why: "aws s3 sync --delete deletes objects missing from the source", Examples: ex("aws s3 sync . s3://b/p --delete")}),
						Examples: ex("aws s3 cp s3://b/k k.txt")},
					sub("ls", fx(Network), "aws s3 ls asks S3", "aws s3 ls s3://bucket/"),
					sub("mb", fx(Network, SystemChange), "aws s3 mb creates a bucket", "aws s3 mb s3://new-bucket"),
					{Name: "mv", Effects: fx(Deletion, Network, SystemChange), Outside: true, Why: "aws s3 mv deletes the source objects", Examples: ex("aws s3 mv s3://b/a s3://b/b")},
					{Name: "rb", Aliases: names("rm"), Effects: fx(Deletion, Network), Outside: true, Why: "aws s3 rm deletes objects from S3", Examples: ex("aws s3 rm s3://b/k", "aws s3 rb s3://b --force")},
				},
				Examples: ex("aws s3")},
			{Name: "sts", Effects: fx(Network), Other: fx(Network), Why: "aws sts asks AWS about the credentials",
				Subcommands: []Program{
					{Name: "get-caller-identity", Aliases: names("decode-authorization-message", "get-access-key-info"), Effects: fx(Network), Why: "aws sts asks AWS about the credentials",
						Examples: ex("aws sts get-access-key-info --access-key-id AKIAX")},
					secret(Program{Name: "get-session-token", Aliases: names("assume-role", "assume-role-with-saml", "assume-role-with-web-identity", "get-federation-token"),
						Effects: fx(Network), Why: "aws sts get-session-token prints temporary credentials", Examples: ex("aws sts get-session-token")})},
				Examples: ex("aws sts get-caller-identity")},
		},
		Examples: ex("aws --version"), NotExamples: ex("aws ec2 terminate-instances --instance-ids i-1", "aws rds delete-db-instance --db-instance-identifier x")},
		fl(arg("--profile", "--region", "--output", "--query", "--endpoint-url", "--color", "--cli-read-timeout", "--cli-connect-timeout", "--page-size", "--max-items", "--starting-token"),
			rpath("--cli-input-json", "--cli-input-yaml", "--ca-bundle"))),
	{Name: "az", Effects: fx(Read), Other: fx(Network, SystemChange), DeleteVerbs: names("delete", "purge"),
		Flags: fl(arg("-g", "--resource-group", "--subscription", "-o", "--output", "--query", "-n", "--name", "-l", "--location")),
		Subcommands: []Program{
			{Name: "account", Effects: fx(Network), Why: "az account asks Azure", Other: fx(Network),
				Subcommands: []Program{secret(sub("get-access-token", fx(Network), "az account get-access-token prints a token", "az account get-access-token")),
					{Name: "set", Effects: fx(WriteOutside), HomeWrite: "~/.azure/azureProfile.json", Why: "az account set changes the CLI's default subscription", Examples: ex("az account set -s sub1")}},
				Examples: ex("az account show")},
			{Name: "login", Aliases: names("logout"), Effects: fx(Network, WriteOutside), HomeWrite: "~/.azure", Why: "az login stores credentials under ~/.azure", Examples: ex("az login")},
			rsub("version", "az version"),
		},
		Examples: ex("az --version"), NotExamples: ex("az group delete -n rg")},
	{Name: "gcloud", Effects: fx(Read), Other: fx(Network, SystemChange), DeleteVerbs: names("delete", "purge"),
		Flags: fl(arg("--project", "--region", "--zone", "--format", "--account", "--configuration", "--filter", "--limit", "--impersonate-service-account", "--verbosity")),
		Subcommands: []Program{
			{Name: "auth", Effects: fx(Network, WriteOutside), HomeWrite: "~/.config/gcloud", Why: "gcloud auth stores credentials under ~/.config/gcloud", Other: fx(Network, WriteOutside),
				Subcommands: []Program{rsub("list", "gcloud auth list"), secret(Program{Name: "print-access-token", Aliases: names("print-identity-token"), Effects: fx(Network), Why: "gcloud auth print-access-token mints a token", Examples: ex("gcloud auth print-access-token")})},
				Examples:    ex("gcloud auth login")},
			{Name: "config", Effects: fx(Read), Other: fx(WriteOutside),
				Subcommands: []Program{rsub("get", "gcloud config get project"), rsub("get-value", "gcloud config get-value project"), rsub("list", "gcloud config list"),
					{Name: "set", Effects: fx(WriteOutside), HomeWrite: "~/.config/gcloud/configurations", Why: "gcloud config set changes gcloud's configuration", Examples: ex("gcloud config set project p")}},
				Examples: ex("gcloud config")},
			rsub("info", "gcloud info"),
			rsub("version", "gcloud version"),
		},
		Examples: ex("gcloud --version"), NotExamples: ex("gcloud compute instances delete vm-1")},
	{Name: "gsutil", Effects: fx(Network, SystemChange), Why: "gsutil talks to Cloud Storage", Other: fx(Network, SystemChange),
		Subcommands: []Program{
			{Name: "cat", Aliases: names("du", "ls", "stat"), Effects: fx(Network), Why: "gsutil ls asks Cloud Storage", Examples: ex("gsutil ls gs://b")},
			{Name: "cp", Aliases: names("rsync"), Effects: fx(Network, SystemChange, WriteInside), Operands: CopyPaths, Why: "gsutil cp copies between Cloud Storage and the machine",
				Examples: ex("gsutil cp gs://b/k k.txt")},
			{Name: "rb", Aliases: names("rm"), Effects: fx(Deletion, Network), Outside: true, Why: "gsutil rm deletes objects from Cloud Storage", Examples: ex("gsutil rm gs://b/k")},
		},
		Examples: ex("gsutil mb gs://new")},
	{Name: "pulumi", Effects: fx(Read), Other: fx(SystemChange, Network),
		Subcommands: []Program{
			{Name: "destroy", Effects: fx(Deletion, Network), Outside: true, Why: "pulumi destroy deletes the stack's cloud resources", Examples: ex("pulumi destroy --yes")},
			sub("preview", fx(Network, OpaqueLow), "pulumi preview runs the program against the cloud", "pulumi preview"),
			{Name: "stack", Effects: fx(Network), Why: "pulumi stack talks to the backend", Other: fx(Network, SystemChange),
				Subcommands: []Program{
					sub("ls", fx(Network), "pulumi stack ls asks the backend", "pulumi stack ls"),
					sub("output", fx(Network), "pulumi stack output reads the stack's outputs", "pulumi stack output url"),
					{Name: "rm", Effects: fx(Deletion, Network), Outside: true, Why: "pulumi stack rm deletes a stack and its history", Examples: ex("pulumi stack rm dev")},
				},
				Examples: ex("pulumi stack")},
			sub("up", fx(SystemChange, Network, OpaqueLow), "pulumi up runs the program and changes cloud resources", "pulumi up --yes"),
			rsub("version", "pulumi version"),
		},
		Examples: ex("pulumi --help")},
	singleDash(withFlags(Program{Name: "terraform", Aliases: names("tofu"), Effects: fx(Read), Other: fx(SystemChange, Network), SingleDashLong: true,
		Subcommands: []Program{
			{Name: "apply", Effects: fx(SystemChange, Network), Why: "terraform apply changes real infrastructure", SingleDashLong: true,
				Flags:    fl(Flag{Names: names("-destroy"), Effects: fx(Deletion), Outside: true, Why: "terraform apply -destroy deletes the managed infrastructure", Examples: ex("terraform apply -destroy")}),
				Examples: ex("terraform apply", "terraform apply -auto-approve tfplan")},
			rsub("console", "terraform console"),
			{Name: "destroy", Effects: fx(Deletion, Network), Outside: true, Why: "terraform destroy deletes the managed infrastructure", Examples: ex("terraform destroy -auto-approve")},
			{Name: "fmt", Effects: fx(WriteInside), Operands: WritePaths, Why: "terraform fmt rewrites the files", SingleDashLong: true,
				Flags: fl(Flag{Names: names("-check"), Replace: true, ReadOnly: true, Effects: fx(Verify), Examples: ex("terraform fmt -check -recursive")},
					// -diff shows the changes and still writes them.
					Flag{Names: names("-diff"), Replace: true, Effects: fx(Verify), Examples: ex("terraform fmt -diff")}), Examples: ex("terraform fmt", "terraform fmt -recursive")},
			{Name: "force-unlock", Aliases: names("import", "refresh", "taint", "untaint"), Effects: fx(SystemChange, Network), Why: "terraform import changes the state", Examples: ex("terraform import aws_s3_bucket.b b")},
			{Name: "get", Effects: fx(Network, WriteInside), Why: "terraform get downloads modules", Examples: ex("terraform get")},
			rsub("graph", "terraform graph"),
			{Name: "init", Effects: fx(Network, WriteInside), Why: "terraform init downloads providers and modules into .terraform", Examples: ex("terraform init", "terraform -chdir=infra init -upgrade")},
			{Name: "login", Aliases: names("logout"), Effects: fx(Network, WriteOutside), HomeWrite: "~/.terraform.d/credentials.tfrc.json", Why: "terraform login stores a token in the home directory", Examples: ex("terraform login")},
			{Name: "output", Aliases: names("show"), Effects: fx(Network), Why: "terraform output reads the state, possibly from a remote backend", Examples: ex("terraform output -json", "terraform show")},
			{Name: "plan", Effects: fx(Network), Why: "terraform plan reads the real infrastructure", SingleDashLong: true,
				Flags: fl(Flag{Names: names("-destroy")}), Examples: ex("terraform plan", "terraform plan -var env=prod"), NotExamples: ex("terraform plan -out /tmp/p")},
			rsub("providers", "terraform providers"),
			{Name: "state", Effects: fx(Network), Why: "terraform state reads the state", Other: fx(SystemChange, Network),
				Subcommands: []Program{sub("list", fx(Network), "terraform state list reads the state", "terraform state list"), sub("pull", fx(Network), "terraform state pull reads the state", "terraform state pull"),
					sub("show", fx(Network), "terraform state show reads the state", "terraform state show aws_s3_bucket.b")},
				Examples: ex("terraform state")},
			{Name: "test", Effects: fx(SystemChange, Network), Why: "terraform test creates and destroys real infrastructure", Examples: ex("terraform test")},
			{Name: "validate", Effects: fx(Verify), Examples: ex("terraform validate")},
			rsub("version", "terraform version"),
			{Name: "workspace", Effects: fx(Read), Other: fx(SystemChange, Network),
				Subcommands: []Program{rsub("list", "terraform workspace list"), rsub("show", "terraform workspace show")}, Examples: ex("terraform workspace")},
		},
		Examples: ex("terraform -help")},
		fl(dir("-chdir"), arg("-var", "-target", "-replace", "-lock-timeout", "-parallelism", "-backend-config", "-state"), wpath("-state-out", "-backup"),
			rpath("-var-file"), wpath("-out")))),
}

// packagePrograms are the machines' package managers.
var packagePrograms = []Program{
	{Name: "apk", Effects: fx(Read), Other: fx(SystemChange, Network),
		Flags: fl(arg("-X", "--repository", "-p", "--root", "--arch", "-t", "--virtual", "--keys-dir", "--cache-dir"), rpath("--repositories-file")),
		Subcommands: []Program{
			{Name: "add", Aliases: names("fix", "update", "upgrade"), Effects: fx(SystemChange, Network), Why: "apk add installs packages on the machine", Examples: ex("apk add --no-cache curl")},
			{Name: "del", Effects: fx(SystemChange), Why: "apk del removes packages from the machine", Examples: ex("apk del curl")},
			{Name: "info", Aliases: names("list", "policy", "search", "version"), Effects: fx(Read), Examples: ex("apk info -vv", "apk search curl")},
		},
		Examples: ex("apk --version")},
	inherit(Program{Name: "apt", Aliases: names("apt-get", "aptitude"), Effects: fx(Read), Other: fx(SystemChange, Network),
		Flags: fl(prog("-o", "--option"), arg("-t", "--target-release", "-a", "--host-architecture"), rpath("-c", "--config-file"),
			Flag{Names: names("-s", "--simulate", "--dry-run", "--just-print", "--no-act", "--recon"), Replace: true, Effects: fx(Read), Examples: ex("apt-get install -s curl")}),
		Subcommands: []Program{
			{Name: "autoclean", Aliases: names("clean"), Effects: fx(SystemChange), Why: "apt-get clean deletes the package cache", Examples: ex("apt-get clean")},
			{Name: "autoremove", Aliases: names("purge", "remove"), Effects: fx(SystemChange), Why: "apt-get remove removes packages from the machine", Examples: ex("apt-get remove -y curl", "apt autoremove")},
			{Name: "build-dep", Aliases: names("dist-upgrade", "full-upgrade", "install", "reinstall", "satisfy", "upgrade"), Effects: fx(SystemChange, Network),
				Why: "apt-get install installs packages on the machine", Examples: ex("apt-get install -y curl", "apt install -y build-essential", "apt upgrade")},
			{Name: "changelog", Effects: fx(Network), Why: "apt changelog downloads a changelog", Examples: ex("apt changelog curl")},
			{Name: "depends", Aliases: names("list", "moo", "policy", "rdepends", "search", "show", "showsrc"), Effects: fx(Read), Examples: ex("apt list --installed", "apt show curl", "apt search ripgrep")},
			{Name: "download", Aliases: names("source"), Effects: fx(Network, WriteInside), Why: "apt-get download downloads package files into the current directory", Examples: ex("apt-get download curl")},
			{Name: "update", Effects: fx(SystemChange, Network), Why: "apt-get update downloads the package lists", Examples: ex("apt-get update", "apt update")},
		},
		Examples: ex("apt --version")}),
	{Name: "apt-cache", Aliases: names("dpkg-query"), Effects: fx(Read), Examples: ex("apt-cache policy curl", "dpkg-query -W curl")},
	{Name: "brew", Effects: fx(Read), Other: fx(SystemChange, Network, OpaqueMedium),
		Subcommands: []Program{
			{Name: "autoremove", Aliases: names("cleanup", "remove", "rm", "uninstall"), Effects: fx(SystemChange), Why: "brew uninstall removes software from the machine", Examples: ex("brew uninstall jq", "brew cleanup")},
			{Name: "bundle", Effects: fx(SystemChange, Network), Why: "brew bundle installs the Brewfile's software", Other: fx(SystemChange, Network),
				Subcommands: []Program{rsub("check", "brew bundle check"), {Name: "dump", Effects: fx(WriteInside), Why: "brew bundle dump writes a Brewfile", Examples: ex("brew bundle dump")}},
				Examples:    ex("brew bundle")},
			{Name: "casks", Aliases: names("commands", "config", "deps", "desc", "doctor", "formulae", "home", "info", "leaves", "list", "ls", "shellenv", "uses"), Effects: fx(Read),
				Examples: ex("brew list", "brew info jq", "brew doctor", "brew --prefix")},
			{Name: "fetch", Effects: fx(Network), Why: "brew fetch downloads packages", Examples: ex("brew fetch jq")},
			{Name: "install", Aliases: names("link", "pin", "reinstall", "tap", "unlink", "unpin", "untap", "upgrade"), Effects: fx(SystemChange, Network),
				Why: "brew install installs software on the machine", Examples: ex("brew install jq", "brew upgrade", "brew install --cask visual-studio-code")},
			{Name: "outdated", Aliases: names("search"), Effects: fx(Network), Why: "brew search asks the package index", Examples: ex("brew search jq", "brew outdated")},
			{Name: "services", Effects: fx(SystemChange), Why: "brew services starts and stops background services", Other: fx(SystemChange),
				Subcommands: []Program{rsub("info", "brew services info postgresql"), rsub("list", "brew services list")}, Examples: ex("brew services start postgresql")},
			{Name: "update", Effects: fx(SystemChange, Network), Why: "brew update downloads package definitions", Examples: ex("brew update")},
		},
		Examples: ex("brew --version")},
	inherit(Program{Name: "dnf", Aliases: names("microdnf", "yum", "zypper"), Effects: fx(Read), Other: fx(SystemChange, Network),
		Flags: fl(arg("--enablerepo", "--disablerepo", "--setopt", "--releasever", "-x", "--exclude", "--repo"), rpath("-c", "--config"), wpath("--installroot")),
		Subcommands: []Program{
			{Name: "autoremove", Aliases: names("erase", "remove", "rm"), Effects: fx(SystemChange), Why: "dnf remove removes packages from the machine", Examples: ex("dnf remove -y curl")},
			{Name: "check-update", Aliases: names("info", "list", "provides", "repolist", "repoquery", "search"), Effects: fx(Network), Why: "dnf list may refresh the repository metadata",
				Examples: ex("dnf list installed", "yum search curl")},
			{Name: "clean", Effects: fx(SystemChange), Why: "dnf clean deletes cached metadata", Examples: ex("dnf clean all")},
			{Name: "distro-sync", Aliases: names("downgrade", "group", "in", "install", "makecache", "refresh", "reinstall", "up", "update", "upgrade"),
				Effects: fx(SystemChange, Network), Why: "dnf install installs packages on the machine", Examples: ex("dnf install -y git", "yum update -y", "zypper in git")},
		},
		Examples: ex("dnf --version")}),
	{Name: "dpkg", Effects: fx(Read),
		Flags: fl(arg("--root", "--admindir", "--instdir", "--force"),
			Flag{Names: names("-i", "--install", "-r", "--remove", "-P", "--purge", "--configure", "--unpack", "--set-selections", "--add-architecture", "--remove-architecture"),
				Effects: fx(SystemChange), Why: "dpkg -i installs or removes packages on the machine", Examples: ex("dpkg -i a.deb", "dpkg -r curl")},
			Flag{Names: names("-x", "--extract", "-b", "--build"), Effects: fx(WriteInside), Why: "dpkg -x extracts a package's files", Examples: ex("dpkg -x a.deb out")}),
		Examples: ex("dpkg -l", "dpkg -L curl", "dpkg -S /usr/bin/curl", "dpkg --print-architecture")},
	{Name: "flatpak", Aliases: names("snap"), Effects: fx(Read), Other: fx(SystemChange, Network),
		Subcommands: []Program{
			{Name: "connections", Aliases: names("history", "info", "interfaces", "list", "ps", "remotes", "services", "version"), Effects: fx(Read), Examples: ex("flatpak list", "snap list")},
			{Name: "find", Aliases: names("search"), Effects: fx(Network), Why: "snap find asks the store", Examples: ex("snap find jq")},
			{Name: "install", Aliases: names("refresh", "revert", "update"), Effects: fx(SystemChange, Network), Why: "flatpak install installs software on the machine", Examples: ex("flatpak install flathub org.x.App", "snap install jq")},
			{Name: "remove", Aliases: names("uninstall"), Effects: fx(SystemChange), Why: "snap remove removes software from the machine", Examples: ex("snap remove jq")},
			{Name: "run", Effects: fx(OpaqueMedium), Why: "flatpak run runs an installed application", Examples: ex("flatpak run org.x.App")},
		},
		Examples: ex("flatpak --version")},
	{Name: "pacman", Aliases: names("paru", "yay"), Effects: fx(Read),
		Flags: fl(arg("--overwrite", "-b", "--dbpath", "-r", "--root", "--cachedir", "--gpgdir", "--arch", "--ignore", "--ignoregroup", "--assume-installed", "--print-format"),
			rpath("--config"), wpath("--logfile"), prog("--hookdir"),
			Flag{Names: names("-S", "--sync", "-U", "--upgrade", "-y", "--refresh"), Effects: fx(SystemChange, Network), Why: "pacman -S installs packages on the machine",
				Examples: ex("pacman -S --noconfirm git", "pacman -Syu")},
			Flag{Names: names("-R", "--remove", "-D", "--database"), Effects: fx(SystemChange), Why: "pacman -R removes packages from the machine", Examples: ex("pacman -Rns git")}),
		Examples: ex("pacman -Q", "pacman -Qi git", "pacman -Ql git")},
	{Name: "port", Effects: fx(Read), Other: fx(SystemChange, Network),
		Subcommands: []Program{
			{Name: "contents", Aliases: names("deps", "echo", "info", "installed", "list", "outdated", "provides", "search", "variants", "version"), Effects: fx(Read),
				Examples: ex("port installed", "port search jq")},
		},
		Examples: ex("port")},
	{Name: "rpm", Effects: fx(Read),
		Flags: fl(arg("--dbpath", "--queryformat", "--qf"), wpath("--root"),
			Flag{Names: names("-i", "--install", "-U", "--upgrade", "-F", "--freshen", "-e", "--erase", "--import", "--reinstall"), Effects: fx(SystemChange),
				Why: "rpm -i installs or removes packages on the machine", Examples: ex("rpm -ivh a.rpm", "rpm -e curl")}),
		Examples: ex("rpm -qa", "rpm -qf /usr/bin/curl")},
}

// servicePrograms start, stop and schedule the machine's services.
var servicePrograms = []Program{
	// at and batch read the job, shell code, from stdin or -f FILE
	// (classified as the code it is: atJob); -l and -c list or print jobs.
	{Name: "at", Aliases: names("batch"), Effects: fx(SystemChange), Why: "at schedules commands to run later",
		Flags: fl(arg("-q", "-t"), rpath("-f"), bools("-m", "-M", "-v"),
			Flag{Names: names("-l", "-c"), Replace: true, Effects: fx(Read), Examples: ex("at -l", "at -c 3")}),
		Examples: ex("at now + 1 hour"), NotExamples: ex("at now <<< 'rm -rf ~'", "at -f /tmp/job now")},
	{Name: "atrm", Effects: fx(SystemChange), Why: "atrm removes scheduled jobs", Flags: fl(arg("-q")), Examples: ex("atrm 3")},
	ro("atq", "atq"),
	// crontab installs jobs from a file or stdin: their commands are shell
	// code (classified by the classifier's crontab, as at's job is).
	{Name: "crontab", Effects: fx(SystemChange), Operands: ReadPaths, Why: "crontab replaces the user's scheduled commands",
		Flags:    fl(arg("-u"), Flag{Names: names("-l"), Replace: true, Effects: fx(Read), Examples: ex("crontab -l")}),
		Examples: ex("crontab jobs.txt", "crontab -r", "crontab -e"), NotExamples: ex("crontab <<< '@reboot rm -rf ~'", "crontab -l | crontab -")},
	{Name: "defaults", Effects: fx(Read), Other: fx(SystemChange),
		Subcommands: []Program{
			{Name: "delete", Aliases: names("import", "rename", "write"), Effects: fx(SystemChange), Why: "defaults write changes macOS preferences", Examples: ex("defaults write com.apple.dock autohide -bool true")},
			{Name: "domains", Aliases: names("export", "find", "read", "read-type"), Effects: fx(Read), Examples: ex("defaults read com.apple.dock", "defaults domains")},
		},
		Examples: ex("defaults")},
	{Name: "journalctl", Env: systemdEnv, Effects: fx(Read),
		Flags: fl(arg("-u", "--unit", "--user-unit", "--since", "--until", "-p", "--priority", "-t", "--identifier", "-o", "--output", "-D", "--directory", "--file", "--root",
			"-M", "--machine", "-g", "--grep", "--output-fields", "--cursor", "--after-cursor", "-S", "-U", "--facility"), optArg("-n", "-b"), optArg("--lines", "--boot"),
			Flag{Names: names("--vacuum-size", "--vacuum-time", "--vacuum-files"), Value: Arg, Effects: fx(SystemChange), Why: "journalctl --vacuum deletes old journal files",
				Examples: ex("journalctl --vacuum-time=2d")},
			Flag{Names: names("--rotate", "--flush", "--sync", "--relinquish-var", "--smart-relinquish-var", "--setup-keys"), Effects: fx(SystemChange), Why: "journalctl --rotate changes the journal files",
				Examples: ex("journalctl --rotate")}),
		Examples: ex("journalctl -u nginx --since today", "journalctl -xe", "journalctl -n 100 --no-pager")},
	{Name: "launchctl", Effects: fx(Read), Other: fx(SystemChange),
		Subcommands: []Program{
			{Name: "asuser", Aliases: names("bootout", "bootstrap", "config", "disable", "enable", "kickstart", "kill", "load", "reboot", "remove", "setenv", "start", "stop", "submit", "unload", "unsetenv"),
				Effects: fx(SystemChange), Why: "launchctl load starts or changes background services", Examples: ex("launchctl load ~/Library/LaunchAgents/x.plist", "launchctl kickstart -k gui/501/x")},
			{Name: "blame", Aliases: names("dumpstate", "error", "getenv", "help", "list", "managerpid", "manageruid", "print", "print-disabled", "procinfo", "version"), Effects: fx(Read),
				Examples: ex("launchctl list", "launchctl print gui/501")},
		},
		Examples: ex("launchctl")},
	{Name: "service", Effects: fx(SystemChange), Why: "service starts, stops or restarts system services",
		Flags:    fl(Flag{Names: names("--status-all"), Replace: true, Effects: fx(Read), Examples: ex("service --status-all")}),
		Examples: ex("service nginx restart", "service ssh status")},
	inherit(Program{Name: "systemctl", Env: systemdEnv, Effects: fx(Read), Other: fx(SystemChange),
		Flags: fl(arg("-t", "--type", "--state", "-p", "--property", "-n", "--lines", "-o", "--output", "--root", "--kill-whom", "-s", "--signal", "--job-mode", "-M", "--machine", "--what", "--when"),
			Flag{Names: names("-H", "--host"), Value: Arg, Effects: fx(Network), Why: "systemctl -H manages another host", Examples: ex("systemctl -H host status nginx")}),
		Subcommands: []Program{
			{Name: "cat", Aliases: names("get-default", "help", "is-active", "is-enabled", "is-failed", "is-system-running", "list-dependencies", "list-jobs", "list-machines",
				"list-sockets", "list-timers", "list-unit-files", "list-units", "show", "show-environment", "status"), Effects: fx(Read),
				Examples: ex("systemctl status nginx", "systemctl list-units --failed", "systemctl is-active docker")},
			{Name: "daemon-reexec", Aliases: names("daemon-reload", "disable", "edit", "enable", "isolate", "kill", "mask", "poweroff", "preset", "reboot", "reload", "reload-or-restart",
				"reset-failed", "restart", "revert", "set-default", "set-environment", "set-property", "start", "stop", "suspend", "try-restart", "unmask", "unset-environment"),
				Effects: fx(SystemChange), Why: "systemctl restart starts, stops or changes system services", Examples: ex("systemctl restart nginx", "systemctl --user enable --now x.service")},
		},
		Examples: ex("systemctl")}),
}

// editorPrograms are editors and IDE launchers.
var editorPrograms = []Program{
	{Name: "code", Aliases: names("code-insiders", "codium", "cursor", "windsurf"), Effects: fx(Read), Special: SpecialCode, Other: fx(Read),
		Flags: fl(arg("--profile", "--locale", "--log", "--sync", "--enable-proposed-api", "--category", "--inspect-extensions", "--inspect-brk-extensions"),
			// Extensions are code the editor runs; the user data holds its settings and rules.
			code("--user-data-dir", "--extensions-dir"),
			Flag{Names: names("--install-extension"), Value: Arg, Effects: fx(Network, WriteOutside), HomeWrite: "~/.vscode/extensions", Why: "code --install-extension downloads an extension into the home directory",
				Examples: ex("code --install-extension golang.go")},
			Flag{Names: names("--uninstall-extension", "--disable-extension"), Value: Arg, Effects: fx(SystemChange), Why: "code --uninstall-extension changes the installed extensions",
				Examples: ex("code --uninstall-extension golang.go")}),
		Subcommands: []Program{
			{Name: "serve-web", Aliases: names("tunnel"), Effects: fx(Network, SystemChange), Why: "code tunnel exposes the editor over the network", Examples: ex("code tunnel")},
		},
		Examples: ex("code .", "code -g src/a.go:10", "code --list-extensions", "cursor README.md"), NotExamples: ex("code --uninstall-extension ml-ai.command-safety", "code --disable-extensions")},
	{Name: "emacs", Aliases: names("nvim", "vi", "view", "vim"), Effects: fx(OpaqueMedium), Why: "vim and emacs run editor commands from their arguments and startup files",
		Flags: fl(arg("-c", "--cmd", "-S", "-u", "-i", "-T", "-w", "-W", "-s", "--eval", "-l", "--load", "-f", "--funcall")), Examples: ex("vim a.txt", "emacs -nw a.txt")},
	{Name: "nano", Aliases: names("micro", "pico"), Effects: fx(WriteInside), Operands: WritePaths, Why: "nano edits the files it is given",
		Flags: fl(arg("-T", "--tabsize", "-Y", "--syntax"), rpath("--rcfile")), Examples: ex("nano a.txt"), NotExamples: ex("nano ~/.bashrc")},
	{Name: "open", Aliases: names("xdg-open"), Effects: fx(OpaqueMedium), Why: "open starts whatever application handles the file or URL",
		Flags: fl(arg("-a", "-b")), Examples: ex("open .", "xdg-open https://example.com")},
}
