-- AlterTable
ALTER TABLE "Shop" ADD COLUMN "inboundWebhookPreviousSecretExpiresAt" DATETIME;
ALTER TABLE "Shop" ADD COLUMN "inboundWebhookPreviousSecretSealed" TEXT;
ALTER TABLE "Shop" ADD COLUMN "inboundWebhookSecretCreatedAt" DATETIME;
