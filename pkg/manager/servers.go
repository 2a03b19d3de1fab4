// Copyright 2026 The slicekit Authors.
//
// Licensed under the Apache License, Version 2.0 (the "License");
// you may not use this file except in compliance with the License.
// You may obtain a copy of the License at
//
//     http://www.apache.org/licenses/LICENSE-2.0
//
// Unless required by applicable law or agreed to in writing, software
// distributed under the License is distributed on an "AS IS" BASIS,
// WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
// See the License for the specific language governing permissions and
// limitations under the License.

package manager

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/pprof"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/spf13/pflag"
	"k8s.io/klog/v2"
)

// serve runs an HTTP server on l until ctx is done, then shuts it down
// gracefully within the shutdown timeout. A serving failure is sent to
// errs.
func (m *Manager) serve(ctx context.Context, name string, l net.Listener, h http.Handler, errs chan<- error) {
	logger := klog.FromContext(ctx).WithValues("server", name, "address", l.Addr().String())
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		BaseContext:       func(net.Listener) context.Context { return ctx },
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), m.opts.ShutdownTimeout)
		defer cancel()
		if err := srv.Shutdown(sctx); err != nil {
			logger.Error(err, "Shutting down HTTP server")
		}
	}()
	logger.Info("Serving")
	if err := srv.Serve(l); err != nil && !errors.Is(err, http.ErrServerClosed) {
		logger.Error(err, "HTTP server failed")
		errs <- fmt.Errorf("%s server on %s: %w", name, l.Addr(), err)
	}
	<-done
}

// metricsHandler serves the registry on /metrics and, with profiling, Go's
// pprof handlers under /debug/pprof/ (as KCM's --profiling does).
func (m *Manager) metricsHandler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{Registry: m.registry}))
	if m.opts.Profiling {
		mux.HandleFunc("/debug/pprof/", pprof.Index)
		mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
		mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
		mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
		mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	}
	return mux
}

// check is one named health or readiness check; nil means healthy.
type check struct {
	name string
	fn   func(*http.Request) error
}

// healthHandler serves /healthz and /readyz. Both answer 200 "ok" or 500
// with the failed checks; "?verbose" lists every check.
func (m *Manager) healthHandler() http.Handler {
	healthz := []check{{"ping", func(*http.Request) error { return nil }}}
	if m.leaderHealth != nil {
		healthz = append(healthz, check{"leaderElection", m.leaderHealth.Check})
	}
	readyz := []check{
		{"ping", func(*http.Request) error { return nil }},
		{"shutdown", func(*http.Request) error {
			if m.shuttingDown.Load() {
				return errors.New("shutting down")
			}
			return nil
		}},
		{"informerSync", func(*http.Request) error {
			if !m.cachesSynced() {
				return errors.New("informer caches have not synced yet")
			}
			return nil
		}},
		{"permissions", m.permissions.check},
		{"leaderElection", func(*http.Request) error { return m.leaseReached() }},
	}
	mux := http.NewServeMux()
	mux.Handle("/healthz", checksHandler(healthz))
	mux.Handle("/readyz", checksHandler(readyz))
	return mux
}

func checksHandler(checks []check) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var out strings.Builder
		failed := false
		for _, c := range checks {
			if err := c.fn(r); err != nil {
				failed = true
				fmt.Fprintf(&out, "[-]%s failed: %v\n", c.name, err)
			} else {
				fmt.Fprintf(&out, "[+]%s ok\n", c.name)
			}
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		if failed {
			w.WriteHeader(http.StatusInternalServerError)
			fmt.Fprint(w, out.String(), "check failed\n")
			return
		}
		if _, verbose := r.URL.Query()["verbose"]; verbose {
			fmt.Fprint(w, out.String(), "ok\n")
			return
		}
		fmt.Fprint(w, "ok")
	})
}

// newBuildInfoCollector returns the gauge slicekit_build_info, always 1,
// labelled with the build information.
func newBuildInfoCollector(b BuildInfo) prometheus.Collector {
	g := prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "slicekit_build_info",
		Help: "A metric with a constant '1' value labelled by the version, VCS revision and Go version slicekit was built from.",
		ConstLabels: prometheus.Labels{
			"version":   b.Version,
			"revision":  b.Revision,
			"goversion": b.GoVersion,
		},
	})
	g.Set(1)
	return g
}

// LogFlags logs every flag of fs with its effective value, in one line
// (KCM logs one line per flag at V(1)).
func LogFlags(logger klog.Logger, fs *pflag.FlagSet) {
	flags := map[string]string{}
	fs.VisitAll(func(f *pflag.Flag) {
		flags[f.Name] = f.Value.String()
	})
	logger.Info("Effective flags", "flags", flags)
}
