# syntax=docker/dockerfile:1
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/complyd ./cmd/complyd

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/complyd /usr/local/bin/complyd
USER nonroot:nonroot
ENV COMPLYD_ADDR=0.0.0.0:8080
EXPOSE 8080
ENTRYPOINT ["/usr/local/bin/complyd"]
CMD ["serve"]
