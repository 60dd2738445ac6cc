// Package otlptest runs a real OTLP receiver for tests: the OpenTelemetry
// Collector's own OTLP receiver (go.opentelemetry.io/collector/receiver/otlpreceiver),
// listening for OTLP/HTTP and OTLP/gRPC on loopback, with a consumer that
// records every log record and can be told to answer errors or to be slow.
// No package but tests imports it.
package otlptest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"testing"
	"time"

	"go.opentelemetry.io/collector/component/componenttest"
	"go.opentelemetry.io/collector/config/configgrpc"
	"go.opentelemetry.io/collector/config/configoptional"
	"go.opentelemetry.io/collector/consumer"
	"go.opentelemetry.io/collector/consumer/consumererror"
	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/receiver"
	"go.opentelemetry.io/collector/receiver/otlpreceiver"
	"go.opentelemetry.io/collector/receiver/receivertest"
)

// Record is one received log record, flattened.
type Record struct {
	Protocol  string // "http" or "grpc": which listener took it
	EventName string
	Severity  string
	Body      string
	Time      time.Time
	Attrs     map[string]any // string, int64, bool, []any
	Resource  map[string]any
}

// Mode is how the receiver answers.
type Mode int

const (
	// Accept takes every record.
	Accept Mode = iota
	// Fail answers every export with an error the exporter may retry
	// (gRPC Unavailable, HTTP 503).
	Fail
	// Reject answers every export with a permanent error (HTTP 400).
	Reject
	// Slow waits Delay before taking each export.
	Slow
)

// Receiver is a running collector OTLP receiver.
type Receiver struct {
	// HTTPEndpoint is the OTLP/HTTP base URL (http://127.0.0.1:PORT).
	HTTPEndpoint string
	// GRPCEndpoint is the OTLP/gRPC URL (http://127.0.0.1:PORT).
	GRPCEndpoint string

	mu       sync.Mutex
	cond     *sync.Cond
	mode     Mode
	delay    time.Duration
	records  []Record
	attempts int // exports seen, answered or not
	stop     chan struct{}
	rcv      []receiver.Logs
}

// Start starts a receiver on two free loopback ports; it stops when t ends.
func Start(t testing.TB) *Receiver {
	t.Helper()
	r := &Receiver{stop: make(chan struct{})}
	r.cond = sync.NewCond(&r.mu)
	httpAddr, grpcAddr := freePort(t), freePort(t)
	r.HTTPEndpoint, r.GRPCEndpoint = "http://"+httpAddr, "http://"+grpcAddr
	// Two receivers, one per protocol, so that each record says which
	// listener took it.
	f := otlpreceiver.NewFactory()
	for _, proto := range []string{"http", "grpc"} {
		cfg := f.CreateDefaultConfig().(*otlpreceiver.Config)
		if proto == "http" {
			cfg.Protocols.HTTP.GetOrInsertDefault().ServerConfig.NetAddr.Endpoint = httpAddr
			cfg.Protocols.GRPC = configoptional.None[configgrpc.ServerConfig]()
		} else {
			cfg.Protocols.GRPC.GetOrInsertDefault().NetAddr.Endpoint = grpcAddr
			cfg.Protocols.HTTP = configoptional.None[otlpreceiver.HTTPConfig]()
		}
		next, err := consumer.NewLogs(func(ctx context.Context, ld plog.Logs) error { return r.consume(ctx, proto, ld) })
		if err != nil {
			t.Fatal(err)
		}
		rcv, err := f.CreateLogs(context.Background(), receivertest.NewNopSettings(f.Type()), cfg, next)
		if err != nil {
			t.Fatal(err)
		}
		if err := rcv.Start(context.Background(), componenttest.NewNopHost()); err != nil {
			t.Fatalf("starting the OTLP/%s receiver: %v", proto, err)
		}
		r.rcv = append(r.rcv, rcv)
	}
	t.Cleanup(r.Shutdown)
	return r
}

// Shutdown stops the receiver (a collector that is down from now on).
func (r *Receiver) Shutdown() {
	r.mu.Lock()
	select {
	case <-r.stop:
		r.mu.Unlock()
		return
	default:
		close(r.stop)
	}
	rcv := r.rcv
	r.mu.Unlock()
	for _, x := range rcv {
		_ = x.Shutdown(context.Background())
	}
}

// freePort returns a loopback host:port nothing listens on now.
func freePort(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// SetMode makes the receiver answer as m from the next export on; delay is
// Slow's wait.
func (r *Receiver) SetMode(m Mode, delay time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.mode, r.delay = m, delay
}

func (r *Receiver) consume(ctx context.Context, proto string, ld plog.Logs) error {
	r.mu.Lock()
	r.attempts++
	mode, delay := r.mode, r.delay
	r.cond.Broadcast()
	r.mu.Unlock()
	switch mode {
	case Fail:
		return errors.New("otlptest: collector failing on purpose")
	case Reject:
		return consumererror.NewPermanent(errors.New("otlptest: collector rejecting on purpose"))
	case Slow:
		select {
		case <-time.After(delay):
		case <-r.stop:
			return errors.New("otlptest: stopped")
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	var got []Record
	rls := ld.ResourceLogs()
	for i := 0; i < rls.Len(); i++ {
		rl := rls.At(i)
		res := rl.Resource().Attributes().AsRaw()
		sls := rl.ScopeLogs()
		for j := 0; j < sls.Len(); j++ {
			lrs := sls.At(j).LogRecords()
			for k := 0; k < lrs.Len(); k++ {
				lr := lrs.At(k)
				got = append(got, Record{Protocol: proto, EventName: lr.EventName(), Severity: lr.SeverityText(),
					Body: lr.Body().AsString(), Time: lr.Timestamp().AsTime(), Attrs: lr.Attributes().AsRaw(), Resource: res})
			}
		}
	}
	r.mu.Lock()
	r.records = append(r.records, got...)
	r.cond.Broadcast()
	r.mu.Unlock()
	return nil
}

// Records returns every record received so far.
func (r *Receiver) Records() []Record {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Record(nil), r.records...)
}

// Attempts is how many exports reached the receiver, answered or not.
func (r *Receiver) Attempts() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.attempts
}

// Wait waits until ok holds for the records received, at most d, and
// returns them; it fails t on timeout. ok runs with the receiver locked: it
// must not call the receiver's methods.
func (r *Receiver) Wait(t testing.TB, d time.Duration, what string, ok func([]Record) bool) []Record {
	t.Helper()
	deadline := time.Now().Add(d)
	timer := time.AfterFunc(d, func() { r.mu.Lock(); r.cond.Broadcast(); r.mu.Unlock() })
	defer timer.Stop()
	r.mu.Lock()
	defer r.mu.Unlock()
	for !ok(r.records) {
		if time.Now().After(deadline) {
			t.Fatalf("otlptest: %s: not received within %v; %d records: %s", what, d, len(r.records), summary(r.records))
		}
		r.cond.Wait()
	}
	return append([]Record(nil), r.records...)
}

func summary(rs []Record) string {
	s := ""
	for i, x := range rs {
		if i == 20 {
			s += " …"
			break
		}
		s += fmt.Sprintf("\n  %s %s %v %v", x.EventName, x.Severity, x.Attrs["command_safety.log.id"], x.Attrs["process.command_line"])
	}
	return s
}

// Attr returns attribute key of rec as a string ("" when absent).
func (rec Record) Attr(key string) string {
	v, ok := rec.Attrs[key]
	if !ok {
		return ""
	}
	return fmt.Sprint(v)
}
