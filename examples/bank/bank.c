/* bank: definitions, with static helpers a test reaches through the unit. */
#include "bank.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#define MAX_AMOUNT ((cents)100000000000LL) /* one billion, in cents */

static int valid_amount(cents amount) { return amount > 0 && amount <= MAX_AMOUNT; }

static cents available(const account *acct) {
  if (acct->kind == ACCOUNT_SAVINGS) return acct->balance;
  return acct->balance + acct->overdraft_limit;
}

bank_status account_init(account *acct, const char *owner, account_kind kind) {
  if (!acct || !owner) return BANK_ERR_NULL;
  if (strlen(owner) == 0 || strlen(owner) >= sizeof acct->owner) return BANK_ERR_PARSE;
  memset(acct, 0, sizeof *acct);
  strcpy(acct->owner, owner);
  acct->kind = kind;
  acct->overdraft_limit = kind == ACCOUNT_CHECKING ? 50000 : 0;
  return BANK_OK;
}

bank_status deposit(account *acct, cents amount) {
  if (!acct) return BANK_ERR_NULL;
  if (acct->kind == ACCOUNT_FROZEN) return BANK_ERR_FROZEN;
  if (!valid_amount(amount) || acct->balance > MAX_AMOUNT - amount) return BANK_ERR_AMOUNT;
  acct->balance += amount;
  return BANK_OK;
}

bank_status withdraw(account *acct, cents amount) {
  if (!acct) return BANK_ERR_NULL;
  if (acct->kind == ACCOUNT_FROZEN) return BANK_ERR_FROZEN;
  if (!valid_amount(amount)) return BANK_ERR_AMOUNT;
  if (amount > available(acct)) return BANK_ERR_FUNDS;
  acct->balance -= amount;
  return BANK_OK;
}

bank_status transfer(account *from, account *to, cents amount, audit_fn audit, void *user_data) {
  if (!from || !to) return BANK_ERR_NULL;
  if (from == to) return BANK_ERR_AMOUNT;
  bank_status s = withdraw(from, amount);
  if (s != BANK_OK) return s;
  s = deposit(to, amount);
  if (s != BANK_OK) {
    from->balance += amount; /* roll back */
    return s;
  }
  if (audit) {
    audit(from, -amount, user_data);
    audit(to, amount, user_data);
  }
  return BANK_OK;
}

/* "12", "12.3", "12.34", "-0.50"; at most two decimals. */
bank_status parse_amount(const char *text, cents *out) {
  if (!text || !out) return BANK_ERR_NULL;
  int negative = 0;
  if (*text == '-') {
    negative = 1;
    ++text;
  }
  if (!isdigit((unsigned char)*text)) return BANK_ERR_PARSE;
  cents whole = 0;
  while (isdigit((unsigned char)*text)) {
    whole = whole * 10 + (*text++ - '0');
    if (whole > MAX_AMOUNT / 100) return BANK_ERR_AMOUNT;
  }
  cents fraction = 0;
  if (*text == '.') {
    ++text;
    int digits = 0;
    while (isdigit((unsigned char)*text) && digits < 2) {
      fraction = fraction * 10 + (*text++ - '0');
      ++digits;
    }
    if (digits == 0) return BANK_ERR_PARSE;
    if (digits == 1) fraction *= 10;
  }
  if (*text != '\0') return BANK_ERR_PARSE;
  *out = (negative ? -1 : 1) * (whole * 100 + fraction);
  return BANK_OK;
}

size_t format_amount(cents amount, char *buf, size_t buf_len) {
  const char *sign = amount < 0 ? "-" : "";
  cents v = amount < 0 ? -amount : amount;
  int n = snprintf(buf, buf_len, "%s%lld.%02lld", sign, (long long)(v / 100), (long long)(v % 100));
  return n < 0 ? 0 : (size_t)n;
}

cents monthly_interest(const account *acct, double annual_rate) {
  if (!acct || acct->kind != ACCOUNT_SAVINGS || annual_rate <= 0.0) return 0;
  if (acct->balance <= 0) return 0;
  return (cents)((double)acct->balance * annual_rate / 12.0);
}
