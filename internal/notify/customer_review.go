package notify

import (
	"fmt"
	"strings"
)

// KindCustomerReviewDue: customers' periodic reviews fell due (docs/guide/customers.md).
const KindCustomerReviewDue = "CUSTOMER_REVIEW_DUE"

// CustomerReviewDue tells a compliance officer which customers' periodic reviews fell due
// (docs/guide/customers.md "Periodic review"); one mail per officer per sweep, listing them.
func CustomerReviewDue(firstName, email string, customers []string) Message {
	list := strings.Join(customers, "\n  ")
	text := fmt.Sprintf("Hello %s,\n\nThe periodic review of %d customer(s) is due:\n\n  %s\n\n"+
		"Sign in to complyd (Customers, Reviews due) to review them.\n", firstName, len(customers), list)
	var items strings.Builder
	for _, c := range customers {
		items.WriteString("<li>" + htmlEscape(c) + "</li>")
	}
	html := fmt.Sprintf("<p>Hello %s,</p><p>The periodic review of %d customer(s) is due:</p><ul>%s</ul>"+
		"<p>Sign in to complyd (Customers, Reviews due) to review them.</p>", htmlEscape(firstName), len(customers), items.String())
	return Message{Kind: "customer_review_due", To: email, Subject: fmt.Sprintf("%d customer review(s) due", len(customers)), Text: text, HTML: html}
}
