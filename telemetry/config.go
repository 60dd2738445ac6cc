package telemetry

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/ml-ai/command-safety/settings"
)

// Config is where and how records are exported.
type Config struct {
	// Endpoint is the collector's base URL from `ml-ai.telemetry`, as in
	// OTEL_EXPORTER_OTLP_ENDPOINT; "" when the OTEL_EXPORTER_OTLP_*
	// variables configure the exporter (the SDK reads them itself).
	Endpoint string
	// Protocol is settings.ProtocolHTTP or settings.ProtocolGRPC.
	Protocol string
	// Headers are sent with every export; nil leaves them to
	// OTEL_EXPORTER_OTLP_HEADERS.
	Headers map[string]string
	// RedactCommands leaves command text out of every record.
	RedactCommands bool
	// Source says what configured export, for messages: a settings file, the
	// managed policy or an environment variable.
	Source string
}

// The standard variables [Resolve] reads (the exporters read the other
// OTEL_EXPORTER_OTLP_* themselves, the SDK's resource OTEL_RESOURCE_ATTRIBUTES
// and OTEL_SERVICE_NAME).
const (
	envEndpoint     = "OTEL_EXPORTER_OTLP_ENDPOINT"
	envLogsEndpoint = "OTEL_EXPORTER_OTLP_LOGS_ENDPOINT"
	envProtocol     = "OTEL_EXPORTER_OTLP_PROTOCOL"
	envLogsProtocol = "OTEL_EXPORTER_OTLP_LOGS_PROTOCOL"
	envDisabled     = "OTEL_SDK_DISABLED"
)

// Resolve returns the export configuration of a process from t (the
// settings' `ml-ai.telemetry`, nil when unset) and the environment, and
// whether export is on; warnings say what was ignored.
//
// In order: `"enabled": false` turns export off (the policy's for everyone,
// else the user's); a managed policy's endpoint is the only one (the environment's
// is ignored, and so is OTEL_SDK_DISABLED); else the user setting's
// endpoint; else OTEL_EXPORTER_OTLP_LOGS_ENDPOINT or
// OTEL_EXPORTER_OTLP_ENDPOINT, with OTEL_EXPORTER_OTLP_{LOGS_,}PROTOCOL
// (default http/protobuf). Export is off without an endpoint, or with
// OTEL_SDK_DISABLED=true unless the policy configures it. RedactCommands
// comes from t (the policy's, when it sets `ml-ai.telemetry`).
func Resolve(t *settings.Telemetry, getenv func(string) string) (cfg Config, on bool, warnings []string) {
	envURL := getenv(envLogsEndpoint)
	envName := envLogsEndpoint
	if envURL == "" {
		envURL, envName = getenv(envEndpoint), envEndpoint
	}
	if t != nil {
		cfg.RedactCommands = t.RedactCommands
	}
	switch {
	case t != nil && t.Off:
		return Config{}, false, nil // "enabled": false, the policy's or the user's
	case t != nil && t.Managed && t.Endpoint != "":
		if envURL != "" {
			warnings = append(warnings, fmt.Sprintf("%s ignored: the managed policy (%s) sets ml-ai.telemetry", envName, t.From))
		}
		cfg.Endpoint, cfg.Protocol, cfg.Headers, cfg.Source = t.Endpoint, protocolOr(t.Protocol), t.Headers, "the managed policy "+t.From
		return cfg, true, warnings
	case strings.EqualFold(strings.TrimSpace(getenv(envDisabled)), "true"):
		return Config{}, false, nil
	case t != nil && t.Endpoint != "" && !t.Managed:
		cfg.Endpoint, cfg.Protocol, cfg.Headers, cfg.Source = t.Endpoint, protocolOr(t.Protocol), t.Headers, t.From
		return cfg, true, nil
	case envURL != "":
		if _, err := url.Parse(envURL); err != nil {
			return Config{}, false, []string{fmt.Sprintf("%s=%q is not a URL; export is off", envName, envURL)}
		}
		p := getenv(envLogsProtocol)
		if p == "" {
			p = getenv(envProtocol)
		}
		switch p {
		case "", settings.ProtocolHTTP, settings.ProtocolGRPC:
		default:
			warnings = append(warnings, fmt.Sprintf("OTEL_EXPORTER_OTLP_PROTOCOL %q is not supported here; using %s", p, settings.ProtocolHTTP))
			p = ""
		}
		cfg.Protocol, cfg.Source = protocolOr(p), envName
		return cfg, true, warnings
	}
	return Config{}, false, nil
}

func protocolOr(p string) string {
	if p == "" {
		return settings.ProtocolHTTP
	}
	return p
}

// logsURL is the OTLP/HTTP logs URL for a base endpoint, as
// OTEL_EXPORTER_OTLP_ENDPOINT is read: /v1/logs appended to its path.
func logsURL(base string) string {
	u, err := url.Parse(base)
	if err != nil {
		return base
	}
	if !strings.HasSuffix(u.Path, "/v1/logs") {
		u.Path = strings.TrimSuffix(u.Path, "/") + "/v1/logs"
	}
	return u.String()
}
