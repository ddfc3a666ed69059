# Bindery's container image: a static, CGO-free, stripped binary (built by
# `make release`, as `make test` builds it) on a distroless base, running as
# a non-root user with its SQLite database in the /data volume.
#
#   docker build --build-arg COMMIT=$(git rev-parse HEAD) -t bindery .
#   docker run -p 8080:8080 -v bindery-data:/data bindery
#
# For PostgreSQL, set BINDERY_DATABASE_URL (see compose.yaml).

# The Go of go.mod.
FROM golang:1.26.8-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=""
ARG COMMIT=""
RUN make release BIN=/out/bindery VERSION="$VERSION" COMMIT="$COMMIT" && /out/bindery version && mkdir /out/data

# The nonroot variant runs as uid 65532; /data belongs to that user.
FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/bindery /usr/local/bin/bindery
COPY --from=build --chown=65532:65532 /out/data /data
ENV BINDERY_ADDR=0.0.0.0:8080 \
    BINDERY_DATABASE_URL=/data/bindery.db \
    BINDERY_DRAIN_DELAY=5s
VOLUME /data
EXPOSE 8080
USER nonroot:nonroot
ENTRYPOINT ["/usr/local/bin/bindery"]
CMD ["serve", "--token-file", "/data/bindery.db.token"]
