package telemetry

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlplog/otlploggrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlplog/otlploghttp"
	"go.opentelemetry.io/otel/log"
	sdklog "go.opentelemetry.io/otel/sdk/log"
	"go.opentelemetry.io/otel/sdk/resource"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"

	"github.com/ml-ai/command-safety/audit"
	"github.com/ml-ai/command-safety/settings"
)

// Options tune an [Exporter]. Zero fields take the defaults below.
type Options struct {
	// QueueSize bounds the records waiting for export (default 2048). A
	// [Shipper] never emits more than fit ([Exporter.Room]); a record
	// emitted beyond it is dropped and counted.
	QueueSize int
	// BatchSize is the most records one export sends (default 512).
	BatchSize int
	// Interval is how long a record waits for a batch to fill (default 200 ms).
	Interval time.Duration
	// ExportTimeout bounds one export, its retries included (default 5 s):
	// past it the batch is dropped and counted.
	ExportTimeout time.Duration
	// Version is service.version (the gate's classifier version, say).
	Version string
	// OnExport is called after each export (on the SDK's export goroutine):
	// the log ids of the records it carried, by kind, and its error.
	OnExport func(Ack)
	// OnError receives the SDK's own errors (otel.Handle); nil drops them.
	OnError func(error)
}

// Defaults of [Options].
const (
	DefaultQueueSize     = 2048
	DefaultBatchSize     = 512
	DefaultInterval      = 200 * time.Millisecond
	DefaultExportTimeout = 5 * time.Second
)

// Ack is what one export did.
type Ack struct {
	Verdicts    []int64 // log ids of verdict records
	Resolutions []int64 // log ids of resolution records
	Err         error   // nil: the collector took them; else they are dropped
}

// Stats counts records since the [Exporter] started.
type Stats struct {
	Emitted  int64 // handed to the SDK
	Exported int64 // taken by the collector
	Failed   int64 // dropped: their export failed (collector down, slow, or an error answer)
	Dropped  int64 // dropped: the queue was full when they were emitted
	LastErr  error // the last export's error, nil after a success
}

// Exporter sends records through the OpenTelemetry SDK: a LoggerProvider
// with the SDK's BatchProcessor (bounded queue, exports on its own
// goroutine, each bounded by ExportTimeout) over the OTLP exporter of
// Config.Protocol, wrapped to count and acknowledge each export.
type Exporter struct {
	provider *sdklog.LoggerProvider
	logger   log.Logger
	redact   bool
	queue    int

	emitted, exported, failed, dropped atomic.Int64
	errMu                              sync.Mutex
	lastErr                            error
	onExport                           func(Ack)
	shutdown                           atomic.Bool
}

// NewExporter builds an exporter for cfg. It does not connect: the first
// export does, on the SDK's goroutine.
func NewExporter(ctx context.Context, cfg Config, opts Options) (*Exporter, error) {
	if opts.QueueSize <= 0 {
		opts.QueueSize = DefaultQueueSize
	}
	if opts.BatchSize <= 0 {
		opts.BatchSize = DefaultBatchSize
	}
	if opts.Interval <= 0 {
		opts.Interval = DefaultInterval
	}
	if opts.ExportTimeout <= 0 {
		opts.ExportTimeout = DefaultExportTimeout
	}
	if opts.OnError != nil {
		otel.SetErrorHandler(otel.ErrorHandlerFunc(opts.OnError))
	} else {
		otel.SetErrorHandler(otel.ErrorHandlerFunc(func(error) {}))
	}
	inner, err := newOTLP(ctx, cfg, opts.ExportTimeout)
	if err != nil {
		return nil, fmt.Errorf("telemetry: %s exporter: %w", cfg.Protocol, err)
	}
	e := &Exporter{redact: cfg.RedactCommands, queue: opts.QueueSize, onExport: opts.OnExport}
	res, err := resource.New(ctx,
		resource.WithAttributes(semconv.ServiceName("command-safety"), semconv.ServiceVersion(opts.Version)),
		resource.WithHost(),
		resource.WithTelemetrySDK(),
		resource.WithFromEnv(), // OTEL_RESOURCE_ATTRIBUTES, OTEL_SERVICE_NAME: last, so they win
	)
	if err != nil && res == nil {
		res = resource.Default()
	}
	bp := sdklog.NewBatchProcessor(&ackExporter{inner: inner, e: e},
		sdklog.WithMaxQueueSize(opts.QueueSize),
		sdklog.WithExportMaxBatchSize(opts.BatchSize),
		sdklog.WithExportInterval(opts.Interval),
		sdklog.WithExportTimeout(opts.ExportTimeout))
	e.provider = sdklog.NewLoggerProvider(sdklog.WithResource(res), sdklog.WithProcessor(bp))
	e.logger = e.provider.Logger("github.com/ml-ai/command-safety/telemetry", log.WithInstrumentationVersion(opts.Version))
	return e, nil
}

// newOTLP is the SDK's OTLP log exporter for cfg. With an Endpoint from
// the settings it is given explicitly; otherwise the exporter reads the
// OTEL_EXPORTER_OTLP_* variables itself, as the specification says.
func newOTLP(ctx context.Context, cfg Config, timeout time.Duration) (sdklog.Exporter, error) {
	retry := struct{ first, max, total time.Duration }{250 * time.Millisecond, time.Second, timeout}
	if cfg.Protocol == settings.ProtocolGRPC {
		o := []otlploggrpc.Option{otlploggrpc.WithTimeout(timeout), otlploggrpc.WithRetry(otlploggrpc.RetryConfig{
			Enabled: true, InitialInterval: retry.first, MaxInterval: retry.max, MaxElapsedTime: retry.total})}
		if cfg.Endpoint != "" {
			o = append(o, otlploggrpc.WithEndpointURL(cfg.Endpoint))
		}
		if cfg.Headers != nil {
			o = append(o, otlploggrpc.WithHeaders(cfg.Headers))
		}
		return otlploggrpc.New(ctx, o...)
	}
	o := []otlploghttp.Option{otlploghttp.WithTimeout(timeout), otlploghttp.WithRetry(otlploghttp.RetryConfig{
		Enabled: true, InitialInterval: retry.first, MaxInterval: retry.max, MaxElapsedTime: retry.total})}
	if cfg.Endpoint != "" {
		o = append(o, otlploghttp.WithEndpointURL(logsURL(cfg.Endpoint)))
	}
	if cfg.Headers != nil {
		o = append(o, otlploghttp.WithHeaders(cfg.Headers))
	}
	return otlploghttp.New(ctx, o...)
}

// ackExporter counts and acknowledges each export of the SDK's batch
// processor (which calls it from one goroutine at a time).
type ackExporter struct {
	inner sdklog.Exporter
	e     *Exporter
}

func (a *ackExporter) Export(ctx context.Context, records []sdklog.Record) error {
	if len(records) == 0 {
		return a.inner.Export(ctx, records)
	}
	err := a.inner.Export(ctx, records)
	var ack Ack
	for i := range records {
		var id int64
		records[i].WalkAttributes(func(kv attribute.KeyValue) bool {
			if kv.Key == AttrLogID {
				id = kv.Value.AsInt64()
				return false
			}
			return true
		})
		if records[i].EventName() == EventResolution {
			ack.Resolutions = append(ack.Resolutions, id)
		} else {
			ack.Verdicts = append(ack.Verdicts, id)
		}
	}
	ack.Err = err
	n := int64(len(records))
	if err != nil {
		a.e.failed.Add(n)
	} else {
		a.e.exported.Add(n)
	}
	a.e.errMu.Lock()
	a.e.lastErr = err
	a.e.errMu.Unlock()
	if a.e.onExport != nil {
		a.e.onExport(ack)
	}
	return err
}

func (a *ackExporter) Shutdown(ctx context.Context) error   { return a.inner.Shutdown(ctx) }
func (a *ackExporter) ForceFlush(ctx context.Context) error { return a.inner.ForceFlush(ctx) }

// Room is how many more records fit in the queue now.
func (e *Exporter) Room() int {
	return e.queue - int(e.emitted.Load()-e.exported.Load()-e.failed.Load())
}

// EmitVerdict queues the record of row entry and reports whether it did.
// It never blocks: when the queue is full (or the exporter is shut down)
// the record is dropped and counted.
func (e *Exporter) EmitVerdict(entry audit.Entry) bool { return e.emit(verdictRecord(entry, e.redact)) }

// EmitResolution queues the record of prompt entry's answer, like
// [Exporter.EmitVerdict].
func (e *Exporter) EmitResolution(entry audit.Entry) bool {
	return e.emit(resolutionRecord(entry, e.redact))
}

func (e *Exporter) emit(r log.Record) bool {
	if e.shutdown.Load() || e.Room() <= 0 {
		e.dropped.Add(1) // never more in flight than the SDK's queue holds: it drops none
		return false
	}
	e.emitted.Add(1)
	e.logger.Emit(context.Background(), r)
	return true
}

// Stats returns the counts so far.
func (e *Exporter) Stats() Stats {
	e.errMu.Lock()
	defer e.errMu.Unlock()
	return Stats{Emitted: e.emitted.Load(), Exported: e.exported.Load(), Failed: e.failed.Load(),
		Dropped: e.dropped.Load(), LastErr: e.lastErr}
}

// Shutdown exports what is queued and stops, within ctx: records still
// queued when ctx ends are dropped (counted in Stats as neither exported
// nor failed).
func (e *Exporter) Shutdown(ctx context.Context) error {
	e.shutdown.Store(true)
	err := e.provider.Shutdown(ctx)
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return fmt.Errorf("telemetry: flushing at shutdown: %w", err)
	}
	return err
}
