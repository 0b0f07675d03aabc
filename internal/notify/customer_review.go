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
	text := fmt.Sprintf("Hello %s,\n\nThe periodic %s due:\n\n  %s\n\n"+
		"Sign in to complyd (Customers, Reviews due) to review them.\n", firstName, reviewsOf(len(customers)), list)
	var items strings.Builder
	for _, c := range customers {
		items.WriteString("<li>" + htmlEscape(c) + "</li>")
	}
	html := fmt.Sprintf("<p>Hello %s,</p><p>The periodic %s due:</p><ul>%s</ul>"+
		"<p>Sign in to complyd (Customers, Reviews due) to review them.</p>", htmlEscape(firstName), reviewsOf(len(customers)), items.String())
	return Message{Kind: "customer_review_due", To: email, Subject: CustomerReviewsDueTitle(len(customers)), Text: text, HTML: html}
}

// reviewsOf is "review of 1 customer is" or "reviews of 3 customers are".
func reviewsOf(n int) string {
	if n == 1 {
		return "review of 1 customer is"
	}
	return fmt.Sprintf("reviews of %d customers are", n)
}

// CustomerReviewsDueTitle is "1 customer review due" or "3 customer reviews due".
func CustomerReviewsDueTitle(n int) string {
	if n == 1 {
		return "1 customer review due"
	}
	return fmt.Sprintf("%d customer reviews due", n)
}
