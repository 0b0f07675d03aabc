// Package smtptest is a real SMTP listener for tests: it speaks enough of RFC 5321 (EHLO/HELO,
// MAIL, RCPT, DATA, RSET, NOOP, QUIT) over a loopback TCP socket to receive what a client sends,
// and records every message.
package smtptest

import (
	"bufio"
	"net"
	"strings"
	"sync"
	"testing"
	"time"
)

// Message is one received mail.
type Message struct {
	From string
	To   []string
	Data string // headers and body as sent
}

// Server is a running SMTP sink.
type Server struct {
	Addr string
	mu   sync.Mutex
	msgs []Message
	l    net.Listener
	// FailNext makes the next n transactions answer 451 at DATA (to test retries).
	failNext int
}

// Start starts a sink on 127.0.0.1 and stops it at test cleanup.
func Start(t testing.TB) *Server {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{Addr: l.Addr().String(), l: l}
	go s.serve()
	t.Cleanup(func() { _ = l.Close() })
	return s
}

// FailNext makes the next n messages fail with a temporary error.
func (s *Server) FailNext(n int) { s.mu.Lock(); s.failNext = n; s.mu.Unlock() }

// Messages returns what was received so far.
func (s *Server) Messages() []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Message(nil), s.msgs...)
}

// WaitFor waits until n messages arrived or the timeout passes.
func (s *Server) WaitFor(n int, timeout time.Duration) []Message {
	deadline := time.Now().Add(timeout)
	for {
		m := s.Messages()
		if len(m) >= n || time.Now().After(deadline) {
			return m
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (s *Server) serve() {
	for {
		c, err := s.l.Accept()
		if err != nil {
			return
		}
		go s.handle(c)
	}
}

func (s *Server) handle(c net.Conn) {
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(30 * time.Second))
	r := bufio.NewReader(c)
	w := bufio.NewWriter(c)
	say := func(line string) { _, _ = w.WriteString(line + "\r\n"); _ = w.Flush() }
	say("220 smtptest ready")
	var cur Message
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		line = strings.TrimRight(line, "\r\n")
		verb := strings.ToUpper(strings.SplitN(line, " ", 2)[0])
		switch verb {
		case "EHLO":
			say("250-smtptest")
			say("250-8BITMIME")
			say("250 SMTPUTF8")
		case "HELO":
			say("250 smtptest")
		case "MAIL":
			cur = Message{From: addr(line)}
			say("250 OK")
		case "RCPT":
			cur.To = append(cur.To, addr(line))
			say("250 OK")
		case "DATA":
			say("354 end with <CRLF>.<CRLF>")
			var b strings.Builder
			for {
				l, err := r.ReadString('\n')
				if err != nil {
					return
				}
				if l == ".\r\n" || l == ".\n" {
					break
				}
				b.WriteString(strings.TrimPrefix(l, "."))
			}
			cur.Data = b.String()
			s.mu.Lock()
			fail := s.failNext > 0
			if fail {
				s.failNext--
			} else {
				s.msgs = append(s.msgs, cur)
			}
			s.mu.Unlock()
			if fail {
				say("451 temporary failure")
			} else {
				say("250 OK queued")
			}
		case "RSET":
			cur = Message{}
			say("250 OK")
		case "NOOP":
			say("250 OK")
		case "QUIT":
			say("221 bye")
			return
		default:
			say("502 not implemented")
		}
	}
}

func addr(line string) string {
	i, j := strings.Index(line, "<"), strings.Index(line, ">")
	if i < 0 || j < i {
		return ""
	}
	return line[i+1 : j]
}
