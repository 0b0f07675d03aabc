// Package smtp is the notify.Mailer over SMTP (go-mail), configured by COMPLYD_SMTP_URL
// (smtp://user:pass@host:port; smtps:// for implicit TLS; ?tls=none|opportunistic|mandatory).
// Without a URL, cmd wires LogMailer instead, which records mail without sending it.
//
// smtp must not import other adapters.
package smtp

import (
	"context"
	"fmt"
	"log/slog"
	"net/url"
	"strconv"

	mail "github.com/wneessen/go-mail"

	"github.com/complyd/complyd/internal/notify"
)

// Mailer sends notify.Messages over SMTP.
type Mailer struct {
	host string
	opts []mail.Option
	from string
}

// New parses an smtp:// URL.
func New(rawURL, from string) (*Mailer, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("parse COMPLYD_SMTP_URL: %w", err)
	}
	port := 587
	tls := mail.TLSOpportunistic
	var opts []mail.Option
	switch u.Scheme {
	case "smtp":
	case "smtps":
		port = 465
		opts = append(opts, mail.WithSSL())
	default:
		return nil, fmt.Errorf("COMPLYD_SMTP_URL: scheme must be smtp or smtps, not %q", u.Scheme)
	}
	if p := u.Port(); p != "" {
		if port, err = strconv.Atoi(p); err != nil {
			return nil, fmt.Errorf("COMPLYD_SMTP_URL: bad port: %w", err)
		}
	}
	switch u.Query().Get("tls") {
	case "none":
		tls = mail.NoTLS
	case "mandatory":
		tls = mail.TLSMandatory
	}
	opts = append(opts, mail.WithPort(port), mail.WithTLSPolicy(tls))
	if u.User != nil {
		pw, _ := u.User.Password()
		opts = append(opts, mail.WithSMTPAuth(mail.SMTPAuthPlain), mail.WithUsername(u.User.Username()), mail.WithPassword(pw))
	}
	return &Mailer{host: u.Hostname(), opts: opts, from: from}, nil
}

// Delivers is true: this mailer really sends.
func (m *Mailer) Delivers() bool { return true }

// Send delivers one message.
func (m *Mailer) Send(ctx context.Context, msg notify.Message) error {
	em := mail.NewMsg()
	if err := em.From(m.from); err != nil {
		return fmt.Errorf("from address: %w", err)
	}
	if err := em.To(msg.To); err != nil {
		return fmt.Errorf("to address: %w", err)
	}
	em.Subject(msg.Subject)
	em.SetBodyString(mail.TypeTextPlain, msg.Text)
	if msg.HTML != "" {
		em.AddAlternativeString(mail.TypeTextHTML, msg.HTML)
	}
	em.SetMessageID()
	c, err := mail.NewClient(m.host, m.opts...)
	if err != nil {
		return fmt.Errorf("smtp client: %w", err)
	}
	if err := c.DialAndSendWithContext(ctx, em); err != nil {
		return fmt.Errorf("send mail: %w", err)
	}
	return nil
}

// LogMailer records mail in the log instead of sending it (no COMPLYD_SMTP_URL).
type LogMailer struct{ Log *slog.Logger }

// Delivers is false: mail is only logged.
func (LogMailer) Delivers() bool { return false }

// Send logs the message's envelope (never its body, which may hold personal data).
func (l LogMailer) Send(ctx context.Context, msg notify.Message) error {
	l.Log.InfoContext(ctx, "mail recorded (no SMTP configured)", "kind", msg.Kind, "to", msg.To, "subject", msg.Subject)
	return nil
}
