-- AlterTable
ALTER TABLE "User" ADD COLUMN     "deactivatedAt" TIMESTAMPTZ(3),
ADD COLUMN     "lastSignInAt" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "SignInFailure" (
    "id" BIGSERIAL NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "email" VARCHAR(254) NOT NULL,
    "address" VARCHAR(64) NOT NULL,

    CONSTRAINT "SignInFailure_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SetupCode" (
    "hash" CHAR(64) NOT NULL,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "SetupCode_pkey" PRIMARY KEY ("hash")
);

-- CreateTable
CREATE TABLE "RuleFileSync" (
    "id" INTEGER NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,
    "ok" BOOLEAN NOT NULL,
    "error" VARCHAR(2000),
    "checksum" CHAR(64),
    "instance" VARCHAR(120) NOT NULL,

    CONSTRAINT "RuleFileSync_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "SignInFailure_email_address_at_idx" ON "SignInFailure"("email", "address", "at");

-- CreateIndex
CREATE INDEX "SignInFailure_address_at_idx" ON "SignInFailure"("address", "at");

-- CreateIndex
CREATE INDEX "SignInFailure_at_idx" ON "SignInFailure"("at");
