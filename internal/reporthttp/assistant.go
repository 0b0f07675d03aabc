package reporthttp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/complyd/complyd/internal/reports"
)

// Assistant improves narratives through an OpenAI-compatible chat completions endpoint.
type Assistant struct {
	url, key, model string
	client          *http.Client
}

var _ reports.Assistant = (*Assistant)(nil)

// NewAssistant returns the assistant of COMPLYD_ASSIST_URL (the API base, e.g.
// https://api.example/v1, or the full .../chat/completions URL), COMPLYD_ASSIST_KEY and
// COMPLYD_ASSIST_MODEL; nil when url is empty. The caller's context bounds every call.
func NewAssistant(url, key, model string) *Assistant {
	if url == "" {
		return nil
	}
	if !strings.HasSuffix(url, "/chat/completions") {
		url = strings.TrimSuffix(url, "/") + "/chat/completions"
	}
	return &Assistant{url: url, key: key, model: model, client: &http.Client{}}
}

const systemPrompt = "You help an AML compliance officer at a Nigerian bank write the narrative of a regulatory report " +
	"to the Nigerian Financial Intelligence Unit. Rewrite the draft narrative clearly and factually in plain English. " +
	"Use only the facts given; never invent names, amounts, dates or conclusions. Answer with the narrative text only."

// factsJSON is what the assistant sees: the report's own facts, nothing else of the tenant.
func factsJSON(f reports.Facts) map[string]any {
	txs := make([]map[string]any, 0, len(f.Transactions))
	for _, t := range f.Transactions {
		hits := make([]map[string]any, 0, len(t.Hits))
		for _, h := range t.Hits {
			hits = append(hits, map[string]any{"party": h.Party, "list": h.List, "entryId": h.EntryID, "entryName": h.Name,
				"matchedName": h.MatchedName, "score": h.Score})
		}
		txs = append(txs, map[string]any{"reference": t.ExternalID, "type": t.Type, "amount": t.Amount.String(), "currency": t.Currency,
			"amountNgn": t.AmountNGN.String(), "timestamp": t.Timestamp, "receiverName": t.ReceiverName,
			"receiverCountry": t.ReceiverCountry, "narration": t.Narration, "rules": t.Rules, "sanctionsHits": hits})
	}
	return map[string]any{"reportType": f.Type, "customerName": f.CustomerName, "customerAccount": f.CustomerAccount,
		"transactions": txs, "rulesTriggered": f.Rules, "caseNumber": f.CaseNumber, "caseTitle": f.CaseTitle,
		"caseDescription": f.CaseDescription, "caseNotes": f.CaseNotes}
}

// Improve implements reports.Assistant.
func (a *Assistant) Improve(ctx context.Context, f reports.Facts, draft string) (string, error) {
	facts, err := json.Marshal(factsJSON(f))
	if err != nil {
		return "", err
	}
	body, err := json.Marshal(map[string]any{"model": a.model, "temperature": 0, "messages": []map[string]string{
		{"role": "system", "content": systemPrompt},
		{"role": "user", "content": "Facts (JSON):\n" + string(facts) + "\n\nDraft narrative:\n" + draft},
	}})
	if err != nil {
		return "", err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, a.url, bytes.NewReader(body))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/json")
	if a.key != "" {
		req.Header.Set("Authorization", "Bearer "+a.key)
	}
	res, err := a.client.Do(req)
	if err != nil {
		return "", fmt.Errorf("call assistant: %w", err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	if err != nil {
		return "", fmt.Errorf("read assistant: %w", err)
	}
	if res.StatusCode != http.StatusOK {
		return "", fmt.Errorf("assistant status %d", res.StatusCode)
	}
	var out struct {
		Choices []struct {
			Message struct {
				Content string `json:"content"`
			} `json:"message"`
		} `json:"choices"`
	}
	if err := json.Unmarshal(b, &out); err != nil || len(out.Choices) == 0 {
		return "", fmt.Errorf("assistant answer is not a chat completion")
	}
	return out.Choices[0].Message.Content, nil
}
