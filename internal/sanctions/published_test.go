package sanctions

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestPublishedAt: each format's publication date as its files state it, or none.
func TestPublishedAt(t *testing.T) {
	t.Parallel()
	un := []SourceFile{{Name: "consolidated.xml", Data: []byte(`<?xml version="1.0"?>
<CONSOLIDATED_LIST xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" dateGenerated="2026-02-27T00:00:09.554Z"><INDIVIDUALS/></CONSOLIDATED_LIST>`)}}
	require.Equal(t, time.Date(2026, 2, 27, 0, 0, 9, 554_000_000, time.UTC), publishedAt(FormatUNXML, "", un))
	snap := []SourceFile{{Name: "sdn.snapshot-2023-12-28.csv"}, {Name: "alt.snapshot-2023-12-28.csv"}}
	require.Equal(t, time.Date(2023, 12, 28, 0, 0, 0, 0, time.UTC), publishedAt(FormatOFACSDNCSV, "", snap))
	require.True(t, publishedAt(FormatOFACSDNCSV, "", []SourceFile{{Name: "sdn.csv", Data: []byte("1,X")}}).IsZero(), "OFAC's CSV says no date")
	ftm := []SourceFile{{Name: "entities.ftm.json", Data: []byte(`{"id":"a","schema":"Person","last_seen":"2024-06-01T10:57:03"}
{"id":"b","schema":"Person","last_seen":"2024-05-01T10:57:03"}`)}}
	require.Equal(t, time.Date(2024, 5, 27, 13, 47, 2, 0, time.UTC), publishedAt(FormatFtM, "20240527134702-zbn", ftm))
	require.Equal(t, time.Date(2024, 6, 1, 10, 57, 3, 0, time.UTC), publishedAt(FormatFtM, "", ftm), "else the newest last_seen")
	require.True(t, publishedAt(FormatCSV, "", []SourceFile{{Name: "peps.csv"}}).IsZero())
}
