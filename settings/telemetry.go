package settings

import (
	"errors"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"

	"github.com/ml-ai/command-safety/effects"
)

// The protocols `ml-ai.telemetry.protocol` names, spelled as
// OTEL_EXPORTER_OTLP_PROTOCOL spells them.
const (
	ProtocolHTTP = "http/protobuf" // OTLP/HTTP with protobuf bodies (the default)
	ProtocolGRPC = "grpc"          // OTLP/gRPC
)

// Telemetry is `ml-ai.telemetry`: where verdicts are exported as
// OpenTelemetry log records (package telemetry). User settings or the
// managed policy only: a workspace cannot turn export on or point it
// elsewhere.
//
//	"ml-ai.telemetry": {
//	  "endpoint": "https://otel.example.com:4318",  // as OTEL_EXPORTER_OTLP_ENDPOINT
//	  "protocol": "http/protobuf",                  // or "grpc"
//	  "headers": {"authorization": "Bearer …"},
//	  "redactCommands": true,                       // send no command text
//	  "enabled": false                              // no export at all (default true)
//	}
type Telemetry struct {
	// Endpoint is the collector's base URL, as in
	// OTEL_EXPORTER_OTLP_ENDPOINT (http or https); "" leaves the endpoint to
	// the OTEL_EXPORTER_OTLP_* environment variables.
	Endpoint string
	// Protocol is [ProtocolHTTP] or [ProtocolGRPC]; "" is [ProtocolHTTP].
	Protocol string
	// Headers are sent with every export (an API key, say).
	Headers map[string]string
	// RedactCommands leaves the command text out of every record.
	RedactCommands bool
	// Off is `"enabled": false`: no export, whatever the OTEL_* variables
	// say (an agent's own telemetry variables reach the hooks too).
	Off bool
	// From names the file that set it.
	From string
	// Managed is true when the managed policy set it: then it is the only
	// telemetry configuration (user settings and the OTEL_EXPORTER_OTLP_*
	// variables are ignored).
	Managed bool
}

// same reports whether t and o configure the same export.
func (t *Telemetry) same(o *Telemetry) bool {
	if t == nil || o == nil {
		return t == o
	}
	return t.Endpoint == o.Endpoint && t.Protocol == o.Protocol && t.RedactCommands == o.RedactCommands &&
		t.Off == o.Off && maps.Equal(t.Headers, o.Headers)
}

// parseTelemetry validates an `ml-ai.telemetry` object. Any bad member
// makes the whole object invalid: half an export configuration (the
// headers without the endpoint, say) is not what anybody asked for.
func parseTelemetry(val any) (*Telemetry, error) {
	obj, ok := val.(map[string]any)
	if !ok {
		return nil, fmt.Errorf(`want an object {"endpoint": URL, "protocol", "headers", "redactCommands"}, got %s`, typeName(val))
	}
	t := &Telemetry{}
	var errs []error
	for _, k := range sortedKeys(obj) {
		v := obj[k]
		switch k {
		case "endpoint":
			s, ok := v.(string)
			if !ok {
				errs = append(errs, fmt.Errorf("endpoint: want a URL string, got %s", typeName(v)))
				continue
			}
			if err := checkEndpoint(s); err != nil {
				errs = append(errs, fmt.Errorf("endpoint %q: %w", s, err))
				continue
			}
			t.Endpoint = s
		case "protocol":
			s, ok := v.(string)
			if !ok || (s != ProtocolHTTP && s != ProtocolGRPC) {
				errs = append(errs, fmt.Errorf("protocol: want %q or %q, got %v", ProtocolHTTP, ProtocolGRPC, v))
				continue
			}
			t.Protocol = s
		case "headers":
			h, ok := v.(map[string]any)
			if !ok {
				errs = append(errs, fmt.Errorf("headers: want an object of strings, got %s", typeName(v)))
				continue
			}
			t.Headers = map[string]string{}
			for _, name := range sortedKeys(h) {
				s, ok := h[name].(string)
				if !ok || name == "" || strings.ContainsAny(name, " \t\r\n:") || strings.ContainsAny(s, "\r\n") {
					errs = append(errs, fmt.Errorf("headers[%q]: want a header name and a one-line string value", name))
					continue
				}
				t.Headers[name] = s
			}
		case "redactCommands", "enabled":
			b, ok := v.(bool)
			if !ok {
				errs = append(errs, fmt.Errorf("%s: want a boolean, got %s", k, typeName(v)))
				continue
			}
			if k == "enabled" {
				t.Off = !b
			} else {
				t.RedactCommands = b
			}
		default:
			errs = append(errs, fmt.Errorf("unknown key %q (want endpoint, protocol, headers, redactCommands, enabled)", k))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, errors.New(strings.ReplaceAll(err.Error(), "\n", "; "))
	}
	return t, nil
}

// checkEndpoint accepts an absolute http or https URL with a host.
func checkEndpoint(s string) error {
	u, err := url.Parse(s)
	if err != nil {
		return errors.New("not a URL")
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return errors.New("want an http:// or https:// URL")
	}
	if u.Host == "" {
		return errors.New("the URL has no host")
	}
	if u.User != nil {
		return errors.New("put credentials in headers, not in the URL")
	}
	return nil
}

// parseRefuse validates the managed policy's `ml-ai.refuse`: a list of
// effect classes.
func parseRefuse(val any) ([]effects.Class, error) {
	list, ok := val.([]any)
	if !ok {
		return nil, fmt.Errorf(`want a list of effects such as ["network", "privilege-escalation"], got %s`, typeName(val))
	}
	out := []effects.Class{}
	for i, x := range list {
		s, ok := x.(string)
		if !ok {
			return nil, fmt.Errorf("[%d]: want an effect name, got %s", i, typeName(x))
		}
		c, err := effects.ParseClass(s)
		if err != nil {
			return nil, fmt.Errorf("[%d]: %w", i, err)
		}
		if !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out, nil
}
