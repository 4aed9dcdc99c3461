terraform {
  required_version = ">= 1.5.0"

  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = ">= 5.40, < 7.0"
    }
    random = {
      source  = "hashicorp/random"
      version = ">= 3.5, < 4.0"
    }
  }

  # Keep state in an encrypted, access-controlled bucket: it contains the generated database
  # password and admin key. Example:
  # backend "s3" {
  #   bucket       = "my-tfstate-bucket"
  #   key          = "gecit/aws.tfstate"
  #   region       = "eu-central-1"
  #   encrypt      = true
  #   use_lockfile = true
  # }
}

provider "aws" {
  region = var.region

  default_tags {
    tags = {
      app = "gecit"
    }
  }
}
