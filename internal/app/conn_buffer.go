package app

import (
	"bufio"
	"io"
	"net"
)

// connReadBuffer is each accepted connection's read buffer: a few HTTP/2 frames, or a unary
// gRPC call's HEADERS and DATA together.
const connReadBuffer = 4 << 10

// bufferedListener gives every accepted connection a read buffer of its own.
//
// Why: net/http's HTTP/2 server (h2c: gRPC, Connect and gRPC-Web on the one port) reads its
// frames straight from the connection, each with two reads, its 9-byte header and then its
// payload; a unary gRPC call (a HEADERS and a DATA frame) took four read system calls, and every
// message of a stream two. With the buffer, one read usually takes in everything the client has
// sent. HTTP/1 is unchanged: net/http reads it through a 4 kB buffer of its own, and a read at
// least as large as this buffer goes straight to the connection (bufio.Reader), with no extra
// copy.
type bufferedListener struct{ net.Listener }

func (l bufferedListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &bufferedConn{Conn: c, r: bufio.NewReaderSize(c, connReadBuffer)}, nil
}

// bufferedConn reads through r; every other method is the connection's own.
type bufferedConn struct {
	net.Conn
	r *bufio.Reader
}

// Read makes at most one read of the connection, as net.Conn's Read does: net/http's check
// for a client that went away (a one-byte read it aborts with a deadline) still returns at once.
func (c *bufferedConn) Read(p []byte) (int, error) { return c.r.Read(p) }

// CloseWrite keeps net/http's half-close of an HTTP/1 connection it ends after an error, so
// that the client reads the error instead of a reset.
func (c *bufferedConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

// ReadFrom keeps the connection's own ReadFrom (sendfile and splice) for responses copied
// from a file or a pipe; it writes, so the read buffer has no part in it.
func (c *bufferedConn) ReadFrom(r io.Reader) (int64, error) { return io.Copy(c.Conn, r) }
