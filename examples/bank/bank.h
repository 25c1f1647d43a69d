/* bank: a small C library of accounts, the example mosaic is run on. */
#ifndef BANK_H
#define BANK_H

#include <stddef.h>
#include <stdint.h>

typedef enum { ACCOUNT_CHECKING, ACCOUNT_SAVINGS, ACCOUNT_FROZEN } account_kind;

typedef enum {
  BANK_OK = 0,
  BANK_ERR_NULL = -1,
  BANK_ERR_AMOUNT = -2,
  BANK_ERR_FUNDS = -3,
  BANK_ERR_FROZEN = -4,
  BANK_ERR_PARSE = -5,
} bank_status;

typedef int64_t cents;

typedef struct {
  char owner[32];
  account_kind kind;
  cents balance;
  cents overdraft_limit;
} account;

/* Called after every successful transaction. */
typedef void (*audit_fn)(const account *acct, cents delta, void *user_data);

bank_status account_init(account *acct, const char *owner, account_kind kind);
bank_status deposit(account *acct, cents amount);
bank_status withdraw(account *acct, cents amount);
bank_status transfer(account *from, account *to, cents amount, audit_fn audit, void *user_data);
bank_status parse_amount(const char *text, cents *out);
size_t format_amount(cents amount, char *buf, size_t buf_len);
cents monthly_interest(const account *acct, double annual_rate);

#endif
