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

// Command image builds slicekit's container image without a Docker engine,
// with github.com/google/go-containerregistry, and pushes it. It is a
// separate module (tools/image) so that the product module does not depend
// on go-containerregistry. The Makefile runs it:
//
//	make image                                # bin/slicekit-image.tar
//	make image-push IMAGE=registry/name:tag   # pushes that tarball's index
//
// build cross-compiles a static slicekit (CGO_ENABLED=0, -trimpath, version,
// revision and commit time stamped with -ldflags -X from git) for
// linux/amd64 and linux/arm64 and assembles, per platform, an image of two
// layers: a base (CA certificates from golang.org/x/crypto/x509roots/fallback,
// /etc/passwd and /etc/group with the non-root user 65532, an empty /tmp)
// and the binary at /slicekit, the entrypoint. There is no shell. Both
// images go into one OCI image index. See writeArchive for the tarball's
// format.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:])
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "image:", err)
		os.Exit(1)
	}
}

const usage = `usage:
  image build [-src DIR] [-o FILE] [-image REF] [-version V] [-revision R] [-source URL] [-platforms linux/amd64,linux/arm64]
  image push  [-i FILE] REF`

func run(ctx context.Context, args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("no command\n%s", usage)
	}
	switch args[0] {
	case "build":
		fs := flag.NewFlagSet("build", flag.ContinueOnError)
		o := BuildOptions{}
		fs.StringVar(&o.Source, "src", "../..", "the slicekit repository (root module) to build")
		fs.StringVar(&o.Output, "o", "../../bin/slicekit-image.tar", "output tarball")
		fs.StringVar(&o.Image, "image", "", "image reference the tarball names (docker load tags it so); required")
		fs.StringVar(&o.Version, "version", "", "version to stamp (default: git describe --tags --always --dirty)")
		fs.StringVar(&o.Revision, "revision", "", "commit to stamp (default: git rev-parse HEAD)")
		fs.StringVar(&o.SourceURL, "source", DefaultSourceURL, "org.opencontainers.image.source label")
		platforms := fs.String("platforms", "linux/amd64,linux/arm64", "comma-separated os/arch platforms of the image index, in order")
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		if fs.NArg() != 0 {
			return fmt.Errorf("build takes no arguments\n%s", usage)
		}
		var err error
		if o.Platforms, err = ParsePlatforms(*platforms); err != nil {
			return fmt.Errorf("-platforms: %w", err)
		}
		res, err := Build(ctx, o)
		if err != nil {
			return err
		}
		fmt.Printf("wrote %s: %s (version %s, revision %s), index %s, platforms %v\n",
			o.Output, o.Image, res.Version, res.Revision, res.IndexDigest, res.Platforms)
		return nil
	case "push":
		fs := flag.NewFlagSet("push", flag.ContinueOnError)
		input := fs.String("i", "../../bin/slicekit-image.tar", "tarball written by build")
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		if fs.NArg() != 1 {
			return fmt.Errorf("push takes one image reference\n%s", usage)
		}
		digest, err := Push(ctx, *input, fs.Arg(0))
		if err != nil {
			return err
		}
		fmt.Printf("pushed %s@%s\n", fs.Arg(0), digest)
		return nil
	}
	return fmt.Errorf("unknown command %q\n%s", args[0], usage)
}
