package fsblob

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"net/url"
	"strconv"
	"time"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/document"
)

// PathPrefix is where Handler expects to be mounted: presigned URLs are
// <baseURL>/blobs/<key>?exp=<unix>&sig=<hex>&name=<fileName>.
const PathPrefix = "/blobs/"

// PresignGet implements document.Blobs. The link is
//
//	<baseURL>/blobs/<key>?exp=<unix seconds>&sig=<hex HMAC-SHA256(secret, key|exp|name)>&name=<name>
//
// where name is CleanFileName(fileName) and exp is now+ttl, truncated to the second; the link is
// valid while now <= exp. ttl must be at least one second (as with S3).
func (s *Store) PresignGet(_ context.Context, key string, ttl time.Duration, fileName string) (string, error) {
	if _, err := s.path(key); err != nil {
		return "", err
	}
	if ttl < time.Second {
		return "", apperr.Invalid("ttl", "must be at least one second")
	}
	exp := s.now().Add(ttl).Unix()
	name := document.CleanFileName(fileName)
	q := url.Values{
		"exp":  {strconv.FormatInt(exp, 10)},
		"sig":  {hex.EncodeToString(s.sign(key, exp, name))},
		"name": {name},
	}
	// Keys need no escaping (see validKey).
	return s.baseURL + PathPrefix + key + "?" + q.Encode(), nil
}

// sign is HMAC-SHA256(secret, key "|" exp "|" name). Keys cannot contain '|' and exp is
// digits only, so the message is unambiguous.
func (s *Store) sign(key string, exp int64, name string) []byte {
	m := hmac.New(sha256.New, s.secret)
	m.Write([]byte(key + "|" + strconv.FormatInt(exp, 10) + "|" + name))
	return m.Sum(nil)
}
