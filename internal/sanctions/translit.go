package sanctions

import "strings"

// variantGroups lists spellings of one name that transliteration (Arabic,
// Hausa, Yoruba, Igbo, French/English colonial spellings) produces. The first
// spelling is the canonical form every other one is rewritten to.
var variantGroups = [][]string{
	{"muhammad", "mohammed", "mohammad", "mohamed", "mohamad", "muhammed", "muhamed", "muhamad", "mohammod",
		"muhammet", "mehmet", "mohd", "muhd", "mohamud", "mahamat", "mamadou", "mouhamed", "mouhamadou", "muhamadu",
		"mohammadu", "mahmadou"},
	{"ahmad", "ahmed", "ahmet", "ahmadu", "ahmedou"},
	{"yusuf", "yousef", "yusif", "yousuf", "youssef", "yusef", "yoosuf", "yoosef", "yousif", "youcef", "yussuf", "yusuff"},
	{"ibrahim", "ebrahim", "ibraheem", "ibrahima", "brahim", "ibrahimu"},
	{"uthman", "usman", "osman", "othman", "usmane", "ousmane", "usmanu", "othmane", "osmane"},
	{"umar", "omar", "oumar", "omer", "umaru"},
	{"abubakar", "abubakr", "aboubakar", "abubaker", "abubakari", "aboubacar", "abubakir", "boubacar", "abubacar"},
	{"musa", "moussa", "mousa", "moosa", "mussa"},
	{"sulayman", "suleiman", "sulaiman", "suleman", "soleiman", "suleyman", "sulaimon", "sulemana", "souleymane", "sulaymon"},
	{"husayn", "hussein", "husain", "hussain", "hosein", "hossein", "houssein", "husein", "hussaini", "husseini"},
	{"hasan", "hassan", "hasen", "hassane"},
	{"mustafa", "mostafa", "moustapha", "mustapha", "mostapha", "moustafa"},
	{"khalid", "khaled", "khalidu"},
	{"mahmud", "mahmoud", "mahmood", "mahmudu"},
	{"abdullah", "abdallah", "abdulla", "abdalla", "abdellah", "abdoulaye", "abdullahi", "abdollah", "abdulah"},
	{"said", "saeed", "sayed", "sayid", "saeid", "saied", "saidu"},
	{"qasim", "kassim", "qassim", "kasim", "qasem", "ghasem", "kasimu", "casim"},
	{"idris", "idrees", "idriss", "idrissa", "idrisu"},
	{"ismail", "ismael", "esmail", "ismaila", "ismaeel", "ismaili"},
	{"yahya", "yahaya", "yehia", "yahia", "yehya"},
	{"salih", "saleh", "salihu"},
	{"jafar", "jaafar", "jafaru"},
	{"hamid", "hameed", "hamed", "hamidu"},
	{"rashid", "rasheed", "rachid", "rashidi", "rashidu"},
	{"majid", "majeed", "magid"},
	{"nasir", "nasser", "naser", "nassir", "nasiru", "nacer"},
	{"yunus", "younes", "yunis", "younis", "yunes", "yunusa", "younous"},
	{"zakariya", "zakaria", "zakariyya", "zakarya", "zakariah", "zakari", "zakariyau"},
	{"hamza", "hamzah", "hamzat"},
	{"bashir", "basheer", "bachir", "bashiru"},
	{"karim", "kareem", "karimu"},
	{"rahman", "rehman", "rahmane", "rahmon"},
	{"aziz", "azeez", "azizu"},
	{"jamal", "gamal", "jamaal", "jamalu"},
	{"tariq", "tarek", "tarik", "tareq"},
	{"walid", "waleed", "oualid"},
	{"faisal", "faysal", "feisal", "faisel"},
	{"khalil", "khaleel", "khalilu"},
	{"jalil", "jaleel"},
	{"qadir", "kadir", "qader", "kader", "kadiri", "gadir", "qadeer", "kadri"},
	{"yaqub", "yakubu", "yakub", "yacoub", "yaqoob", "yacub", "yaakub", "yakoub"},
	{"harun", "haruna", "haroun", "haroon", "harouna"},
	{"isa", "issa", "eisa", "isah", "esa"},
	{"shuayb", "shuaibu", "shuaib", "shoaib", "shuaybu", "chouaib"},
	{"nuh", "nuhu", "nouh"},
	{"aminu", "amino", "aminou"},
	{"bello", "bellow", "belo"},
	{"sani", "sanni", "saani"},
	{"lawal", "lawali", "lawalu"},
	{"ali", "aliyu", "aliou", "alio"},
	{"adam", "adamu", "adama"},
	{"ngozi", "ngozie", "ngozy"},
	{"emeka", "emaka"},
	{"nnamdi", "namdi"},
	{"chinedu", "chinedum"},
	{"ifeanyi", "ifeanyichukwu"},
	{"babatunde", "babtunde"},
	{"olumide", "oluwamide"},
	{"danjuma", "danjumma"},
	{"garba", "garuba"},
	{"usama", "osama", "ousama", "usamah", "osamah"},
	{"abbas", "abass", "abas"},
	{"hafiz", "hafeez", "hafez"},
	{"anwar", "anouar", "anuar"},
	{"ayman", "aiman", "aymen"},
	{"zayd", "zaid", "zeid", "zayed", "zeyd"},
	{"saddam", "sadam"},
	{"muammar", "moammar", "muamar", "moamar"},
	{"habib", "habeeb", "habibu"},
	{"latif", "lateef", "latifu"},
	{"salim", "saleem", "salem", "selim"},
	{"hakim", "hakeem"},
	{"shaykh", "sheikh"},
}

// variantCanon maps every spelling in variantGroups to its canonical form.
var variantCanon = func() map[string]string {
	m := make(map[string]string)
	for _, g := range variantGroups {
		for _, v := range g {
			m[v] = g[0]
		}
	}
	return m
}()

// abdPrefixes introduce Arabic "servant of" compounds written as one word
// (Abdulrahman, Abdelkader, Abdirahman); longest first.
var abdPrefixes = []string{"abdul", "abdel", "abdal", "abdol", "abdur", "abder", "abdus", "abdes", "abdou", "abdoul", "abdu", "abdi", "abd"}

// abdArticles are the article spellings that follow a separate "abd".
var abdArticles = setOf("al", "el", "ul", "ar", "ur", "as", "us", "ad", "an", "ash", "ur", "at", "az")

// canonicalize rewrites one folded token to its canonical transliteration,
// splitting one-word abd- compounds and normalising Yoruba Oluwa-/Olu- and
// Igbo Chukwu-/Chuku- prefixes. It returns one or two tokens.
func canonicalize(t string) []string {
	if c, ok := variantCanon[t]; ok {
		return []string{c}
	}
	switch t {
	case "abdul", "abdel", "abdal", "abdol", "abdou", "abdoul", "abdu", "abd":
		return []string{"abd"}
	}
	for _, p := range abdPrefixes {
		if rest, ok := strings.CutPrefix(t, p); ok && len(rest) >= 3 {
			// Abdurrahman, Abdessalam: the article's assimilated consonant doubles.
			if len(rest) > 3 && rest[0] == rest[1] && (p == "abdur" || p == "abder" || p == "abdus" || p == "abdes") {
				rest = rest[1:]
			}
			if p == "abdou" || p == "abdu" || p == "abdi" || p == "abd" {
				if a, ok := strings.CutPrefix(rest, "l"); ok && len(a) >= 3 && (p == "abdou" || p == "abdu") {
					rest = a
				}
			}
			return []string{"abd", canonicalize(rest)[0]}
		}
	}
	if rest, ok := strings.CutPrefix(t, "oluwa"); ok && len(rest) >= 2 {
		return []string{"olu" + rest}
	}
	if t == "oluwa" {
		return []string{"olu"}
	}
	if rest, ok := strings.CutPrefix(t, "chukwu"); ok {
		return []string{"chuku" + rest}
	}
	return []string{t}
}
