# syntax=docker/dockerfile:1
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/complyd ./cmd/complyd

# The binary stays static (CGO_ENABLED=0); the runtime image carries libxml2's xmllint, which
# validates goAML reports against the FIU's XSD (docs/guide/reports.md "Validation"). distroless has
# no package manager, so the runtime is Debian slim with that one package (about 2 MB installed
# with libxml2) and the same nonroot uid as distroless.
FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends libxml2-utils ca-certificates \
	&& rm -rf /var/lib/apt/lists/* && useradd --uid 65532 --user-group --no-create-home --shell /usr/sbin/nologin nonroot
COPY --from=build /out/complyd /usr/local/bin/complyd
USER nonroot:nonroot
ENV COMPLYD_ADDR=0.0.0.0:8080
EXPOSE 8080
ENTRYPOINT ["/usr/local/bin/complyd"]
CMD ["serve"]
